package io.dpone.backfill.operator.status;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one writer of the status. It patches the status subresource only when the built status differs from the
 * current one: the one it last wrote while the informer cache still lags behind that write, else the resource's
 * own. So a lagging cache never causes a second identical patch, and a restarted operator starts from the
 * resource. While loading, a change of progress counters alone is written at
 * most every {@code progressInterval} (at most 30 s); any other change is written at once. What it writes is
 * scrubbed of credentials ({@link StatusJson#scrubbed}).
 */
public final class StatusWriter {
    /** What this writer last wrote, and the resourceVersion the resource had just before that write. */
    private record Written(BackfillCampaignStatus status, Instant at, String baseVersion) {
    }

    private final Clock clock;
    private final Duration progressInterval;
    private final Map<String, Written> written = new ConcurrentHashMap<>();

    public StatusWriter(Clock clock, Duration progressInterval) {
        this.clock = clock;
        this.progressInterval = progressInterval;
    }

    /**
     * The status as it stands: what this writer last wrote while the cache still shows the resource as it was
     * before that write; otherwise (the cache caught up, or someone else wrote since) the resource's own.
     */
    public BackfillCampaignStatus current(BackfillCampaign campaign) {
        Written w = written.get(key(campaign));
        return w != null && stale(w, campaign) ? w.status() : campaign.getStatus();
    }

    private static boolean stale(Written w, BackfillCampaign campaign) {
        return Objects.equals(w.baseVersion(), campaign.getMetadata().getResourceVersion());
    }

    /** Returns true when a patch was sent. */
    public boolean write(KubernetesClient client, BackfillCampaign campaign, BackfillCampaignStatus built) {
        // Scrubbed before the comparison too: the resource holds the scrubbed form, and comparing it with an
        // unscrubbed one would patch again every pass.
        BackfillCampaignStatus next = StatusJson.scrubbed(built);
        String key = key(campaign);
        Written last = written.get(key);
        BackfillCampaignStatus current = current(campaign);
        if (Objects.equals(current, next)) {
            return false;
        }
        Instant now = clock.instant();
        if (last != null && next.getPhase() == CampaignPhase.Loading && onlyProgressDiffers(current, next)
                && Duration.between(last.at(), now).compareTo(progressInterval) < 0) {
            return false;
        }
        // A JSON patch that sets the whole status: exactly the status built, never merged with an older one.
        String patch = "[{\"op\":\"add\",\"path\":\"/status\",\"value\":" + StatusJson.write(next) + "}]";
        try {
            client.resources(BackfillCampaign.class).inNamespace(campaign.getMetadata().getNamespace())
                    .withName(campaign.getMetadata().getName()).subresource("status")
                    .patch(PatchContext.of(PatchType.JSON), patch);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return false; // deleted meanwhile
            }
            throw e;
        }
        written.put(key, new Written(StatusAssembler.copy(next), now, campaign.getMetadata().getResourceVersion()));
        return true;
    }

    public void forget(BackfillCampaign campaign) {
        written.remove(key(campaign));
    }

    static boolean onlyProgressDiffers(BackfillCampaignStatus a, BackfillCampaignStatus b) {
        if (a == null || b == null) {
            return false;
        }
        BackfillCampaignStatus x = StatusAssembler.copy(a);
        BackfillCampaignStatus y = StatusAssembler.copy(b);
        x.setProgress(null);
        y.setProgress(null);
        return x.equals(y);
    }

    private static String key(BackfillCampaign campaign) {
        String uid = campaign.getMetadata().getUid();
        return uid != null ? uid : campaign.getMetadata().getNamespace() + "/" + campaign.getMetadata().getName();
    }
}

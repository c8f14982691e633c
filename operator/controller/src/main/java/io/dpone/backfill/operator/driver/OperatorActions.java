package io.dpone.backfill.operator.driver;

import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

import java.util.Map;

/**
 * Operator-authorised actions, requested with annotations so that GitOps tools can carry them: the value is a token
 * (any text, e.g. a timestamp or a reason), and the operator records the token it handled in a {@code -done}
 * annotation, so an action runs once per new value, never again on a re-apply of the same manifest.
 * <ul>
 *     <li>{@value #REQUEUE_FAILED}: re-queue failed chunks with a fresh attempt budget and reset the lane pod
 *     failure budget (a Recoverable campaign loads again).</li>
 *     <li>{@value #ROLLBACK}: swap the retained backup back in as the live table, with a rollback receipt; the
 *     value is the reason recorded in the receipt.</li>
 *     <li>{@value #APPROVE}: approve the swap of a campaign with {@code publication.approval: manual}; the value
 *     names who approves, recorded with the time in the ledger and the publication receipt (issue 28).</li>
 *     <li>{@value #PREFLIGHT_RETRY}: run the pre-flight of a campaign it refused again (after the tables were
 *     fixed); a changed spec retries it too.</li>
 *     <li>{@value #RETRY}: drive a campaign again that stopped on a permanent database failure (a missing
 *     privilege, say) once the cause is fixed.</li>
 * </ul>
 * Two annotations are settings rather than actions, read on every pass: {@value #SKIP_PREFLIGHT} (experts only:
 * any non-blank value, recorded as the reason, starts the campaign without pre-flight) and
 * {@value #ROLLBACK_ACCEPT_WRITES} ({@code "true"}: a rollback may move writes made to the published table after
 * publication away from the live name; the receipt records them).
 */
public final class OperatorActions {
    public static final String REQUEUE_FAILED = "backfill.dpone.io/requeue-failed";
    public static final String ROLLBACK = "backfill.dpone.io/rollback";
    public static final String APPROVE = "backfill.dpone.io/approve";
    public static final String PREFLIGHT_RETRY = "backfill.dpone.io/preflight-retry";
    public static final String RETRY = "backfill.dpone.io/retry";
    public static final String SKIP_PREFLIGHT = "backfill.dpone.io/skip-preflight";
    public static final String ROLLBACK_ACCEPT_WRITES = "backfill.dpone.io/rollback-accept-writes";
    public static final String DONE_SUFFIX = "-done";
    private static final int MAX_TOKEN = 256;

    private OperatorActions() {
    }

    public static String requeueToken(BackfillCampaign campaign) {
        return pending(campaign, REQUEUE_FAILED);
    }

    public static String rollbackReason(BackfillCampaign campaign) {
        return pending(campaign, ROLLBACK);
    }

    /** Who approves the swap, as recorded: the annotation's value; null when no new approval is pending. */
    public static String approval(BackfillCampaign campaign) {
        String value = pending(campaign, APPROVE);
        return value == null ? null : "annotation " + APPROVE + ": " + value;
    }

    public static String preflightRetryToken(BackfillCampaign campaign) {
        return pending(campaign, PREFLIGHT_RETRY);
    }

    public static String retryToken(BackfillCampaign campaign) {
        return pending(campaign, RETRY);
    }

    public static boolean anyPending(BackfillCampaign campaign) {
        return requeueToken(campaign) != null || rollbackReason(campaign) != null || preflightRetryToken(campaign) != null
                || retryToken(campaign) != null || pending(campaign, APPROVE) != null;
    }

    /** Records every pending retry request as handled: a pass ran on it (the pre-flight's and the general one). */
    static void markRetriesHandled(KubernetesClient client, BackfillCampaign campaign) {
        for (String annotation : new String[]{PREFLIGHT_RETRY, RETRY}) {
            if (pending(campaign, annotation) != null) {
                markDone(client, campaign, annotation);
            }
        }
    }

    /** How pre-flight was skipped, for the evidence; null when it runs (the default). */
    public static String skipPreflight(BackfillCampaign campaign) {
        String value = annotation(campaign, SKIP_PREFLIGHT);
        if (value == null || value.isBlank()) {
            return null;
        }
        return "annotation " + SKIP_PREFLIGHT + ": " + (value.length() > MAX_TOKEN ? value.substring(0, MAX_TOKEN) : value);
    }

    public static boolean rollbackAcceptsWrites(BackfillCampaign campaign) {
        return "true".equalsIgnoreCase(String.valueOf(annotation(campaign, ROLLBACK_ACCEPT_WRITES)).trim());
    }

    private static String annotation(BackfillCampaign campaign, String name) {
        Map<String, String> a = campaign.getMetadata().getAnnotations();
        return a == null ? null : a.get(name);
    }

    /** The annotation's value when it is set and differs from the handled one; null otherwise. */
    static String pending(BackfillCampaign campaign, String annotation) {
        Map<String, String> a = campaign.getMetadata().getAnnotations();
        if (a == null) {
            return null;
        }
        String value = a.get(annotation);
        if (value == null || value.isBlank() || value.equals(a.get(annotation + DONE_SUFFIX))) {
            return null;
        }
        return value.length() > MAX_TOKEN ? value.substring(0, MAX_TOKEN) : value;
    }

    /** Records the handled token (a merge patch of one annotation on the resource's metadata). */
    static void markDone(KubernetesClient client, BackfillCampaign campaign, String annotation) {
        String value = campaign.getMetadata().getAnnotations().get(annotation);
        String patch = "{\"metadata\":{\"annotations\":{\"" + annotation + DONE_SUFFIX + "\":"
                + io.fabric8.kubernetes.client.utils.Serialization.asJson(value) + "}}}";
        client.resources(BackfillCampaign.class).inNamespace(campaign.getMetadata().getNamespace())
                .withName(campaign.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        campaign.getMetadata().getAnnotations().put(annotation + DONE_SUFFIX, value);
    }
}

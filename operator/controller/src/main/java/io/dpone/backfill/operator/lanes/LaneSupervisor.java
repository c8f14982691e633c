package io.dpone.backfill.operator.lanes;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.dpone.backfill.operator.kubernetes.ApiServerAnswer;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Carries out the engine's lane actions with pods: keeps {@code n} lanes running (a missing or finished lane gets a
 * new pod; a failed one is replaced while the failure budget lasts), drains lanes on a stop (they see the ledger's
 * stop request and exit; a pod still running after the drain timeout is deleted), and deletes pods. Names are
 * deterministic per lane and attempt, so a pass working from a stale cache gets a harmless 409 instead of a second
 * pod for the same lane.
 */
public final class LaneSupervisor {
    private static final Logger LOG = Logger.getLogger(LaneSupervisor.class);

    private final LanePodFactory factory;
    private final Duration drainTimeout;
    private final Clock clock;
    private final Map<String, Instant> stopSeen = new ConcurrentHashMap<>();
    private final Set<String> deleted = ConcurrentHashMap.newKeySet();

    public LaneSupervisor(LanePodFactory factory, Duration drainTimeout, Clock clock) {
        this.factory = factory;
        this.drainTimeout = drainTimeout;
        this.clock = clock;
    }

    /**
     * The observed pods without those this supervisor deleted: an informer cache may show a deleted pod for a moment
     * (or a terminating one for its grace period), and a deleted failed pod must not count against a fresh budget.
     */
    public LanePods visible(LanePods observed) {
        Set<String> present = observed.all().stream().map(LaneSupervisor::id).collect(Collectors.toSet());
        deleted.retainAll(present);
        return observed.without(observed.all().stream().filter(p -> deleted.contains(id(p))).toList());
    }

    public LaneReport ensure(KubernetesClient client, BackfillCampaign campaign, BackfillCampaignSpec normalised, String runKey,
                             int lanes, LanePods pods, ConnectionSecret source, ConnectionSecret target) {
        forgetStops(pods);
        int budget = normalised.getLane().getMaxPodFailures();
        int failures = pods.failures(runKey);
        if (failures > budget) {
            return new LaneReport(List.of(), List.of(), failures, budget, true, pods.active().size(), pods.stuck(runKey, clock.instant()));
        }
        List<String> created = new ArrayList<>();
        List<String> replaced = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        List<String> disruptions = new ArrayList<>();
        for (int lane = 0; lane < lanes && rejected.isEmpty(); lane++) {
            var latest = pods.latest(runKey, lane);
            if (latest.isPresent() && !LanePods.terminated(latest.get())) {
                continue;
            }
            if (latest.isPresent() && latest.get().getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            Pod pod = factory.build(campaign, normalised, runKey, lane, pods.nextAttempt(runKey, lane), source, target);
            try {
                if (create(client, pod)) {
                    created.add(pod.getMetadata().getName());
                    latest.filter(LanePods::failed).filter(f -> !LanePods.disrupted(f)).ifPresent(f -> replaced.add(f.getMetadata().getName()
                            + LanePods.exitCode(f).map(c -> " (exit " + c + ")").orElse("")));
                    latest.filter(LanePods::disrupted).ifPresent(f -> disruptions.add(f.getMetadata().getName()
                            + " (" + LanePods.disruption(f) + ")"));
                }
            } catch (KubernetesClientException e) {
                if (!refusedByTheCluster(e)) {
                    throw e;
                }
                // The next lane would be refused the same way: stop here, keep the lease, report it; the next pass
                // tries again (a quota may free up), without counting it against the pod failure budget.
                LOG.warnf("lane pod %s refused by the API server (%d): %s", pod.getMetadata().getName(), e.getCode(), ApiServerAnswer.message(e));
                rejected.add(pod.getMetadata().getName() + " (HTTP " + e.getCode() + "): " + ApiServerAnswer.message(e));
            }
        }
        return new LaneReport(created, replaced, failures, budget, false, pods.active().size() + created.size(), pods.stuck(runKey, clock.instant()), rejected, disruptions);
    }

    /**
     * A refusal a retry cannot fix by itself within the pass: 422 Invalid (the pod breaks the API server's rules),
     * 403 Forbidden (ResourceQuota, LimitRange, Pod Security admission, a missing or forbidden ServiceAccount), 400.
     * 409 is handled by {@link #create}; 429 and 5xx are transient and go to the reconciler's back-off.
     */
    static boolean refusedByTheCluster(KubernetesClientException e) {
        return e.getCode() == 422 || e.getCode() == 403 || e.getCode() == 400;
    }


    /**
     * Lanes stop claiming once the ledger asks them to; this gives running pods the drain timeout to finish their
     * chunk and exit, then deletes the ones still running. Returns how many are still active.
     */
    public int drain(KubernetesClient client, LanePods pods) {
        forgetStops(pods);
        Instant now = clock.instant();
        int active = 0;
        for (Pod pod : pods.active()) {
            Instant since = stopSeen.computeIfAbsent(id(pod), k -> now);
            if (Duration.between(since, now).compareTo(drainTimeout) >= 0) {
                LOG.infof("lane pod %s still running %s after the stop request: deleting it", pod.getMetadata().getName(), drainTimeout);
                delete(client, pod);
            } else {
                active++;
            }
        }
        return active;
    }

    public void deleteAll(KubernetesClient client, List<Pod> pods) {
        pods.forEach(p -> delete(client, p));
    }

    private void forgetStops(LanePods pods) {
        Set<String> present = pods.all().stream().map(LaneSupervisor::id).collect(Collectors.toSet());
        stopSeen.keySet().retainAll(present);
    }

    private static boolean create(KubernetesClient client, Pod pod) {
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                return false; // created by an earlier pass whose result the cache does not show yet
            }
            throw e;
        }
    }

    private static String id(Pod p) {
        return p.getMetadata().getUid() == null ? p.getMetadata().getName() : p.getMetadata().getUid();
    }

    private void delete(KubernetesClient client, Pod pod) {
        deleted.add(id(pod));
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }
}

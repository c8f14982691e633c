package io.dpone.backfill.operator.lanes;

import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** The lane pods of one campaign as observed (read only): by run key, by lane, terminated or not. */
public final class LanePods {
    public static final String SUCCEEDED = "Succeeded";
    public static final String FAILED = "Failed";

    private final List<Pod> pods;

    private LanePods(List<Pod> pods) {
        this.pods = pods;
    }

    /** Keeps only pods labelled for this campaign and owned by this very object (not a deleted namesake). */
    public static LanePods of(BackfillCampaign campaign, Collection<Pod> observed) {
        String name = campaign.getMetadata().getName();
        String uid = campaign.getMetadata().getUid();
        return new LanePods(observed.stream()
                .filter(p -> name.equals(LaneLabels.label(p, LaneLabels.CAMPAIGN)))
                .filter(p -> uid == null || p.getMetadata().getOwnerReferences() == null
                        || p.getMetadata().getOwnerReferences().isEmpty()
                        || p.getMetadata().getOwnerReferences().stream().anyMatch(o -> uid.equals(o.getUid())))
                .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .toList());
    }

    /** The same view without the given pods (just deleted: the cache may still show them). */
    public LanePods without(Collection<Pod> removed) {
        java.util.Set<String> names = removed.stream().map(p -> p.getMetadata().getName()).collect(java.util.stream.Collectors.toSet());
        return new LanePods(pods.stream().filter(p -> !names.contains(p.getMetadata().getName())).toList());
    }

    public List<Pod> all() {
        return pods;
    }

    public boolean isEmpty() {
        return pods.isEmpty();
    }

    public List<Pod> ofRun(String runKey) {
        return pods.stream().filter(p -> runKey.equals(LaneLabels.label(p, LaneLabels.RUN_KEY))).toList();
    }

    public List<Pod> notOfRun(String runKey) {
        return pods.stream().filter(p -> !runKey.equals(LaneLabels.label(p, LaneLabels.RUN_KEY))).toList();
    }

    /** Failures counted against the budget: failed pods the cluster did not take away (see {@link #disrupted}). */
    public int failures(String runKey) {
        return (int) ofRun(runKey).stream().filter(LanePods::failed).filter(p -> !disrupted(p)).count();
    }

    /**
     * Failed because the cluster took the pod away, not because the lane failed: the kubelet's eviction sets the
     * pod's reason {@code Evicted} and a {@code DisruptionTarget} condition (kubernetes/kubernetes
     * pkg/kubelet/eviction/eviction_manager.go: reason {@code TerminationByKubelet}); an eviction through the API
     * ({@code kubectl drain}), preemption, a taint or a node shutdown set {@code DisruptionTarget} too
     * (pkg/apis/core/types.go, {@code EvictionByEvictionAPI}, {@code PreemptionByScheduler},
     * {@code DeletionByTaintManager}). Such a pod is replaced like a failed one but never spends the budget.
     */
    public static boolean disrupted(Pod pod) {
        if (!failed(pod)) {
            return false;
        }
        return "Evicted".equals(pod.getStatus().getReason()) || pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream().anyMatch(c -> "DisruptionTarget".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** Why a disrupted pod went: the DisruptionTarget reason and message, or the pod's own. */
    public static String disruption(Pod pod) {
        return pod.getStatus().getConditions() == null ? String.valueOf(pod.getStatus().getReason())
                : pod.getStatus().getConditions().stream().filter(c -> "DisruptionTarget".equals(c.getType()))
                .map(c -> c.getReason() + (c.getMessage() == null ? "" : ": " + c.getMessage())).findFirst()
                .orElse(pod.getStatus().getReason() + (pod.getStatus().getMessage() == null ? "" : ": " + pod.getStatus().getMessage()));
    }

    public List<Pod> failed(String runKey) {
        return ofRun(runKey).stream().filter(LanePods::failed).toList();
    }

    public Optional<Pod> latest(String runKey, int lane) {
        return ofRun(runKey).stream().filter(p -> LaneLabels.intLabel(p, LaneLabels.LANE).orElse(-1) == lane)
                .max(Comparator.comparingInt(p -> LaneLabels.intLabel(p, LaneLabels.ATTEMPT).orElse(-1)));
    }

    public int nextAttempt(String runKey, int lane) {
        return latest(runKey, lane).map(p -> LaneLabels.intLabel(p, LaneLabels.ATTEMPT).orElse(-1) + 1).orElse(0);
    }

    /**
     * Waiting reasons with which a pod never starts on its own: a bad image, a missing Secret or key, a container
     * that keeps crashing. Pending for these is not "about to run", and a person must look.
     */
    static final Set<String> STUCK_REASONS = Set.of("ImagePullBackOff", "ErrImagePull", "InvalidImageName",
            "CreateContainerConfigError", "CreateContainerError", "CrashLoopBackOff");

    /** How long a lane pod may stay unschedulable before it is reported (a cluster autoscaler may add a node). */
    public static final Duration UNSCHEDULABLE_BOUND = Duration.ofMinutes(2);

    /**
     * Active pods of the run whose lane container waits for a reason in {@link #STUCK_REASONS}, or that the
     * scheduler has found no node for ({@code PodScheduled=False}, reason {@code Unschedulable}) for longer than
     * {@link #UNSCHEDULABLE_BOUND}: "name: reason" (with the scheduler's message).
     */
    public List<String> stuck(String runKey, Instant now) {
        return ofRun(runKey).stream().filter(p -> !terminated(p))
                .flatMap(p -> Stream.concat(waitingReasons(p).stream().filter(STUCK_REASONS::contains),
                                unschedulable(p, now).stream())
                        .map(r -> p.getMetadata().getName() + ": " + r).limit(1))
                .sorted().toList();
    }

    private static Optional<String> unschedulable(Pod pod, Instant now) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason()))
                .filter(c -> c.getLastTransitionTime() == null
                        || !Instant.parse(c.getLastTransitionTime()).plus(UNSCHEDULABLE_BOUND).isAfter(now))
                .map(c -> "Unschedulable" + (c.getMessage() == null ? "" : " (" + c.getMessage() + ")"))
                .findFirst();
    }

    private static List<String> waitingReasons(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return List.of();
        }
        return pod.getStatus().getContainerStatuses().stream()
                .filter(c -> c.getState() != null && c.getState().getWaiting() != null && c.getState().getWaiting().getReason() != null)
                .map(c -> c.getState().getWaiting().getReason()).toList();
    }

    /** Pods still running or about to (not Succeeded, not Failed). */
    public List<Pod> active() {
        return pods.stream().filter(p -> !terminated(p)).toList();
    }

    public static boolean terminated(Pod pod) {
        return succeeded(pod) || failed(pod);
    }

    public static boolean failed(Pod pod) {
        return pod.getStatus() != null && FAILED.equals(pod.getStatus().getPhase());
    }

    public static boolean succeeded(Pod pod) {
        return pod.getStatus() != null && SUCCEEDED.equals(pod.getStatus().getPhase());
    }

    /** The lane container's exit code when the pod has terminated, for events and messages. */
    public static Optional<Integer> exitCode(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getContainerStatuses().stream()
                .filter(c -> c.getState() != null && c.getState().getTerminated() != null)
                .map(c -> c.getState().getTerminated().getExitCode())
                .filter(Objects::nonNull)
                .findFirst();
    }
}

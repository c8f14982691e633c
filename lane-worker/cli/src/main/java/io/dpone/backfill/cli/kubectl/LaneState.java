package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** One lane pod as a person reads it: lane, attempt, pod, and why it is not running when it is not. */
public record LaneState(String lane, String attempt, String pod, String state, int restarts) {
    /** The operator's lane labels (operator's LaneLabels): the only way to find a campaign's lane pods. */
    static final String CAMPAIGN = "backfill.dpone.io/campaign";
    static final String LANE = "backfill.dpone.io/lane";
    static final String ATTEMPT = "backfill.dpone.io/attempt";
    static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    static final String MANAGED_BY_VALUE = "backfill-operator";

    static final Comparator<LaneState> ORDER = Comparator.comparing((LaneState l) -> number(l.lane()))
            .thenComparing(l -> number(l.attempt()));

    static LaneState of(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        List<ContainerStatus> containers = pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null ? List.of()
                : pod.getStatus().getContainerStatuses();
        int restarts = containers.stream().mapToInt(c -> c.getRestartCount() == null ? 0 : c.getRestartCount()).sum();
        return new LaneState(labels.getOrDefault(LANE, "?"), labels.getOrDefault(ATTEMPT, "?"), pod.getMetadata().getName(),
                state(pod, containers), restarts);
    }

    private static String state(Pod pod, List<ContainerStatus> containers) {
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return "Terminating";
        }
        for (ContainerStatus c : containers) {
            if (c.getState() != null && c.getState().getWaiting() != null && c.getState().getWaiting().getReason() != null) {
                return "Waiting: " + c.getState().getWaiting().getReason();
            }
            if (c.getState() != null && c.getState().getTerminated() != null) {
                var t = c.getState().getTerminated();
                return "Terminated: " + (t.getReason() == null ? "exit" : t.getReason()) + " (exit " + t.getExitCode() + ")";
            }
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return phase == null ? "Pending" : phase;
    }

    private static int number(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }
}

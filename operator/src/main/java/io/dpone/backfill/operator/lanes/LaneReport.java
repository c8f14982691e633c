package io.dpone.backfill.operator.lanes;

import java.util.List;

/**
 * What the lane supervisor did in one pass: pods created, failed pods it replaced (name and exit code, for events),
 * failures counted against the budget, whether the budget is spent, and pods stuck before their lane could start
 * (name and the kubelet's waiting reason, such as ImagePullBackOff or a missing Secret key).
 */
public record LaneReport(List<String> created, List<String> replacedFailures, int failures, int budget,
                         boolean budgetExceeded, int active, List<String> stuck) {
    public LaneReport {
        created = List.copyOf(created);
        replacedFailures = List.copyOf(replacedFailures);
        stuck = List.copyOf(stuck);
    }

    public static LaneReport idle(int failures, int budget, int active, List<String> stuck) {
        return new LaneReport(List.of(), List.of(), failures, budget, false, active, stuck);
    }
}

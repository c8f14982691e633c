package io.dpone.backfill.operator.lanes;

import java.util.List;

/**
 * What the lane supervisor did in one pass: pods created, failed pods it replaced (name and exit code, for events),
 * failures counted against the budget, whether the budget is spent, and pods stuck before their lane could start
 * (name and the kubelet's waiting reason, such as ImagePullBackOff or a missing Secret key), and pod creates the API
 * server or an admission plugin refused (name, HTTP code and the server's message: a 422 for an invalid pod, a 403
 * from a ResourceQuota, a LimitRange, Pod Security or a missing ServiceAccount), and pods the cluster took away
 * (evicted, drained, preempted: name and why) that were replaced without spending the budget.
 */
public record LaneReport(List<String> created, List<String> replacedFailures, int failures, int budget,
                         boolean budgetExceeded, int active, List<String> stuck, List<String> rejected,
                         List<String> replacedDisruptions) {
    public LaneReport {
        replacedDisruptions = List.copyOf(replacedDisruptions);
        created = List.copyOf(created);
        replacedFailures = List.copyOf(replacedFailures);
        stuck = List.copyOf(stuck);
        rejected = List.copyOf(rejected);
    }

    public LaneReport(List<String> created, List<String> replacedFailures, int failures, int budget,
                      boolean budgetExceeded, int active, List<String> stuck) {
        this(created, replacedFailures, failures, budget, budgetExceeded, active, stuck, List.of(), List.of());
    }

    public static LaneReport idle(int failures, int budget, int active, List<String> stuck) {
        return new LaneReport(List.of(), List.of(), failures, budget, false, active, stuck);
    }
}

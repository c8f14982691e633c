package io.dpone.backfill.operator.lanes;

import java.util.List;

/**
 * What the lane supervisor did in one pass: pods created, failed pods it replaced (name and exit code, for events),
 * failures counted against the budget, and whether the budget is spent.
 */
public record LaneReport(List<String> created, List<String> replacedFailures, int failures, int budget,
                         boolean budgetExceeded, int active) {
    public LaneReport {
        created = List.copyOf(created);
        replacedFailures = List.copyOf(replacedFailures);
    }

    public static LaneReport idle(int failures, int budget, int active) {
        return new LaneReport(List.of(), List.of(), failures, budget, false, active);
    }
}

package io.dpone.backfill.core.engine;

/**
 * Renders a {@link NextAction} in a driver's own terms: the CLI names its commands, the operator its annotations.
 * Returns null for an action the driver has nothing to say about; {@link #NEUTRAL} is the domain's wording, which
 * names no command.
 */
@FunctionalInterface
public interface NextActionRenderer {
    String render(NextAction next);

    NextActionRenderer NEUTRAL = next -> {
        if (next instanceof NextAction.FixThenResume f) {
            return "fix the cause of the failed chunks (each chunk's lastError says it"
                    + (f.cause() == null ? "" : "; " + f.cause()) + "), then resume: failed chunks are queued again";
        }
        if (next instanceof NextAction.LiftSuspension) {
            return "set spec.suspend to false to continue";
        }
        if (next instanceof NextAction.NewCampaign n) {
            return "the live table is untouched; fix the cause and start a new campaign with a new backfillId"
                    + (n.inspect() == null ? "" : " (" + n.inspect() + " is kept for diagnosis)");
        }
        if (next instanceof NextAction.ReconcileBeforeSync r) {
            return "the published table " + r.liveTable() + " is live and its backup kept; reconcile it with the source"
                    + " (or roll back) before incremental sync starts";
        }
        if (next instanceof NextAction.StartIncrementalSync s) {
            return "start incremental sync from XMin " + s.anchorXmin();
        }
        return null;
    };
}

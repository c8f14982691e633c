package io.dpone.backfill.cli.status;

import io.dpone.backfill.core.engine.NextAction;

/** The engine's next action in the CLI's own terms: the commands a user of `backfill` types. */
public final class NextActionText {
    private NextActionText() {
    }

    /** One line for the user, or null when nothing is asked of them. */
    public static String of(NextAction next) {
        if (next instanceof NextAction.FixThenResume f) {
            return "fix the cause" + (f.cause() == null ? "" : " (" + f.cause() + ")") + ": `backfill status --format json`"
                    + " shows each failed chunk's lastError and the lane logs say more; then run `backfill resume`";
        }
        if (next instanceof NextAction.LiftSuspension) {
            return "set spec.suspend to false in the campaign file and run `backfill run` again to continue";
        }
        if (next instanceof NextAction.NewCampaign n) {
            return "the live table is untouched; resolve the reason, then start a new campaign with a new backfillId"
                    + (n.inspect() == null ? "" : " (" + n.inspect() + " is kept for diagnosis)");
        }
        if (next instanceof NextAction.ReconcileBeforeSync r) {
            return r.liveTable() + " is the published table now (backup kept); reconcile it with the source, or"
                    + " `backfill rollback`, before any incremental sync starts";
        }
        if (next instanceof NextAction.AwaitApproval) {
            return "the campaign is validated and waits for approval: review it (`backfill status`), then"
                    + " `backfill publish <campaign file>` from another terminal (this run swaps when it sees it)";
        }
        if (next instanceof NextAction.AwaitGroup g) {
            return "this campaign is validated and ready; its publication group " + g.group() + " waits for "
                    + (g.holding().isEmpty() ? "another member" : String.join(", ", g.holding()))
                    + ": `backfill run` those members' files; the run that completes the group swaps every member in one"
                    + " transaction; then `backfill run` this file again to hand it off (exit code 9 until then)";
        }
        if (next instanceof NextAction.AwaitWindow w) {
            return "nothing to do: the campaign is validated and swaps when its publication window " + w.window()
                    + " opens (" + w.opensAt() + "); leave `backfill run` running, or stop it and `backfill resume` then";
        }
        if (next instanceof NextAction.StartIncrementalSync s) {
            return "start incremental sync from the XMin anchor " + s.anchorXmin();
        }
        return null;
    }
}

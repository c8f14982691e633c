package io.dpone.backfill.core.engine;

/**
 * What a person should do after a step, as a fact the domain knows; each driver renders it in its own terms (the
 * CLI names its commands, the operator its annotations). The domain holds no command text.
 */
public sealed interface NextAction {
    /** Nothing: the engine moves on by itself. */
    record None() implements NextAction {
    }

    /** Recoverable: chunks or lanes failed past their budget; fix {@code cause}, then resume (failed chunks re-queued). */
    record FixThenResume(String cause) implements NextAction {
    }

    /** Suspended: lift the suspension to load on. */
    record LiftSuspension() implements NextAction {
    }

    /**
     * Blocked: the live table is untouched (the shadow, when there is one, is kept for diagnosis); resolve the
     * reason and start a new campaign with a new backfillId. {@code inspect} names the table to look at, or null.
     */
    record NewCampaign(String inspect) implements NextAction {
    }

    /**
     * Blocked after the swap: the published table {@code liveTable} is live and its backup kept, but the handoff
     * cannot be committed; reconcile it with the source (or roll back) before incremental sync starts.
     */
    record ReconcileBeforeSync(String liveTable) implements NextAction {
    }

    /** Done: incremental sync starts from this XMin anchor. */
    record StartIncrementalSync(String anchorXmin) implements NextAction {
    }

    NextAction NONE = new None();

    /** Validated: the swap waits for a person to approve it (publication.approval: manual). */
    record AwaitApproval() implements NextAction {
    }

    /** Validated: the swap waits for its publication window, which opens at {@code opensAt}; nothing to do. */
    record AwaitWindow(String window, String opensAt) implements NextAction {
    }

    /**
     * Validated: the swap waits for the other members of publication group {@code group} (issue 27); {@code holding}
     * names the member tables that hold it, each with why.
     */
    record AwaitGroup(String group, java.util.List<String> holding) implements NextAction {
    }
}

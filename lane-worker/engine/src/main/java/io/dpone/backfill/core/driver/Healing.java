package io.dpone.backfill.core.driver;

/**
 * What a host does when a round of steps fails (ADR 0020): the CLI heals within its run (repeats a step a lock
 * timeout failed, reconnects after a lost connection and claims the campaign again under a new epoch); the operator
 * ends the pass, and its next pass opens a new hold.
 */
public interface Healing {
    /** The operator's: the failure ends the pass; the reconciler turns it into a wait and the next pass reconnects. */
    Healing NEXT_PASS = new Healing() {
        @Override
        public HeldCampaign heal(HeldCampaign failed, RuntimeException failure) {
            throw failure;
        }

        @Override
        public void healed() {
        }
    };

    /**
     * Returns what to step on with after {@code failure}: {@code failed} again after a pause, or a new session and
     * lease after a reconnect; throws what does not heal.
     */
    HeldCampaign heal(HeldCampaign failed, RuntimeException failure) throws Exception;

    /** A round completed: any outage is over, and the next one starts with a full budget. */
    void healed();
}

package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.ledger.CampaignLease;

/** The campaign lease was lost (expired or taken over): the driver must stop at once; another owner fences it. */
public class LeaseLostException extends RuntimeException {
    public LeaseLostException(String message) {
        super(message);
    }

    /** A publication or rollback refused by its lease read, before any work, in every adapter's words. */
    public static LeaseLostException swapRefused(CampaignLease lease) {
        return new LeaseLostException("campaign lease lost for run key " + lease.runKey() + " (owner " + lease.owner()
                + ", epoch " + lease.epoch() + "): another driver took over or the lease expired; nothing was changed");
    }

    /**
     * A publication or rollback refused by its fence at the end of its transaction (ADR 0024): the lease was lost
     * while it ran, and its work is rolled back with it.
     */
    public static LeaseLostException swapFenced(CampaignLease lease) {
        return new LeaseLostException("campaign lease lost for run key " + lease.runKey() + " (owner " + lease.owner()
                + ", epoch " + lease.epoch() + ") during the swap: another driver took over or the lease expired;"
                + " the swap was rolled back, nothing was changed");
    }
}

package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.ledger.CampaignLease;

/** The campaign lease was lost (expired or taken over): the driver must stop at once; another owner fences it. */
public class LeaseLostException extends RuntimeException {
    public LeaseLostException(String message) {
        super(message);
    }

    /** A publication or rollback refused by its lease fence, in every adapter's words: it changed nothing. */
    public static LeaseLostException swapRefused(CampaignLease lease) {
        return new LeaseLostException("campaign lease lost for run key " + lease.runKey() + " (owner " + lease.owner()
                + ", epoch " + lease.epoch() + "): another driver took over or the lease expired; nothing was changed");
    }
}

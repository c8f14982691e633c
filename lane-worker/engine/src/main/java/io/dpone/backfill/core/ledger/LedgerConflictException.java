package io.dpone.backfill.core.ledger;

import io.dpone.backfill.core.plan.CampaignIdentity;

/**
 * The ledger already holds this backfill id with another plan or config digest: the spec changed after planning.
 * Permanent: the user must start a new campaign with a new backfillId.
 */
public class LedgerConflictException extends RuntimeException {
    public LedgerConflictException(String message) {
        super(message);
    }

    /**
     * The rule every store applies when {@code backfillId} is already in the ledger: the same run key, plan and
     * config digests return the stored campaign unchanged; anything else is a conflict.
     */
    public static CampaignRecord sameCampaignOrConflict(CampaignRecord stored, String backfillId, CampaignIdentity identity) {
        if (stored.runKey().equals(identity.runKey()) && stored.planDigest().equals(identity.planDigest())
                && stored.configDigest().equals(identity.configDigest())) {
            return stored;
        }
        throw new LedgerConflictException("backfillId " + backfillId + " is already in the ledger with run key "
                + stored.runKey() + ", but this spec has run key " + identity.runKey()
                + " (plan or config digest differs); a changed plan or config needs a new backfillId");
    }
}

package io.dpone.backfill.core.ledger;

import java.time.Instant;

/**
 * What a driver's {@link LedgerStore#claimCampaign} found: the campaign taken (with the lease to drive it), or held
 * by another driver's live database session.
 */
public sealed interface CampaignClaim {

    /**
     * The lease is this driver's. {@code tookOverFrom} names the previous owner whose lease row had not expired
     * but whose session lock was free (its session is gone); null when the lease was free, expired or already ours.
     */
    record Taken(CampaignLease lease, String tookOverFrom) implements CampaignClaim {
    }

    /**
     * Another session holds the campaign's driver lock: a live driver, or one the server has not noticed is gone.
     * Owner, when it took the lease and until when it renewed it, as the lease row says (null when the row holds no
     * lease, e.g. between a release of the lease and of the lock).
     */
    record Held(String owner, Instant since, Instant leaseExpires) implements CampaignClaim {
    }

    static Taken taken(CampaignLease lease) {
        return new Taken(lease, null);
    }

    static Taken tookOver(CampaignLease lease, String previousOwner) {
        return new Taken(lease, previousOwner);
    }

    static Held heldBy(String owner, Instant since, Instant leaseExpires) {
        return new Held(owner, since, leaseExpires);
    }
}

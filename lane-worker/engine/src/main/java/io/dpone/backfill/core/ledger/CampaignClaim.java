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
        /**
         * The host in the owner id: the CLI's owners read {@code role@host:pid:id}; an operator's owner is its pod
         * name, which is its host. Null when the row names no owner.
         */
        public String host() {
            if (owner == null) {
                return null;
            }
            int at = owner.indexOf('@');
            if (at < 0) {
                return owner;
            }
            int colon = owner.indexOf(':', at + 1);
            return owner.substring(at + 1, colon < 0 ? owner.length() : colon);
        }

        /** One line for a person: who holds the campaign, where, since when, until when its lease row runs. */
        public String summary() {
            if (owner == null) {
                return "a driver whose lease row is already released (it is letting go of the campaign)";
            }
            return owner + " on host " + host() + ", holding the lease since " + since + " (renewed until " + leaseExpires + ")";
        }
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

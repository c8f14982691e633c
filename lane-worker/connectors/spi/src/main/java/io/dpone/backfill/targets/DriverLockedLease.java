package io.dpone.backfill.targets;

import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The campaign claim of ADR 0016, written once for every ledger: a driver first takes the campaign's driver lock (a
 * lock its database session owns, so it goes with the session), and only then takes the lease over with the next
 * epoch; a lease claimed that way is renewed only while the session still holds the lock. Each driver lock is taken
 * once per ledger store: both databases count a session lock taken twice, and one release must free it. Not thread
 * safe: the store that owns it serialises its calls.
 */
public final class DriverLockedLease {
    /** What a database does for the claim: its locks and the lease row's statements. */
    public interface Statements {
        /** Takes the campaign's driver lock without waiting; false when another session holds it. */
        boolean tryDriverLock(String runKey) throws SQLException;

        void releaseDriverLock(String runKey) throws SQLException;

        /** Who holds the lease row now (owner, since, expiry), all null when nobody does. */
        CampaignClaim.Held holder(String runKey) throws SQLException;

        /** Under the driver lock: the lease with the next epoch, naming a live holder it replaced; empty: no such campaign. */
        Optional<CampaignClaim.Taken> takeOverLease(String runKey, String owner, long ttlMillis) throws SQLException;

        /** The lease renewed for its current owner, or taken when free or expired; empty when another owner has it. */
        Optional<CampaignLease> acquireLease(String runKey, String owner, long ttlMillis) throws SQLException;

        /** Extends a live lease held with exactly this owner and epoch. */
        boolean renewLease(CampaignLease lease, long ttlMillis) throws SQLException;

        /** The same, and only while this session still holds the campaign's driver lock. */
        boolean renewHoldingDriverLock(CampaignLease lease, long ttlMillis) throws SQLException;

        /** Clears owner and expiry and keeps the epoch, so the next holder's epoch is higher. */
        void releaseLease(CampaignLease lease) throws SQLException;
    }

    private final Statements statements;
    private final String stateSchema;
    private final Set<String> driverLocks = new HashSet<>();

    public DriverLockedLease(Statements statements, String stateSchema) {
        this.statements = statements;
        this.stateSchema = stateSchema;
    }

    public CampaignClaim claim(String runKey, String owner, long ttlMillis) throws SQLException {
        if (driverLocks.contains(runKey)) {
            Optional<CampaignLease> renewed = statements.acquireLease(runKey, owner, ttlMillis);
            return renewed.isPresent() ? CampaignClaim.taken(renewed.get()) : statements.holder(runKey);
        }
        if (!statements.tryDriverLock(runKey)) {
            return statements.holder(runKey);
        }
        driverLocks.add(runKey);
        Optional<CampaignClaim.Taken> taken = statements.takeOverLease(runKey, owner, ttlMillis);
        if (taken.isEmpty()) {
            releaseDriverLock(runKey);
            throw new IllegalStateException("campaign " + runKey + " is not in the ledger " + stateSchema);
        }
        return taken.get();
    }

    /**
     * Extends a live lease; an expired one is not renewable, because its holder may already have been replaced. A
     * lease claimed with the driver lock is renewed only while this session still holds that lock.
     */
    public boolean renew(CampaignLease lease, long ttlMillis) throws SQLException {
        if (!driverLocks.contains(lease.runKey())) {
            return statements.renewLease(lease, ttlMillis);
        }
        if (statements.renewHoldingDriverLock(lease, ttlMillis)) {
            return true;
        }
        releaseDriverLock(lease.runKey());
        return false;
    }

    public void release(CampaignLease lease) throws SQLException {
        statements.releaseLease(lease);
        releaseDriverLock(lease.runKey());
    }

    private void releaseDriverLock(String runKey) throws SQLException {
        if (driverLocks.remove(runKey)) {
            statements.releaseDriverLock(runKey);
        }
    }
}

package io.dpone.backfill.target.mssql.ledger;

import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.target.DriverLockedLease;
import io.dpone.backfill.target.mssql.MssqlAppLock;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The campaign lease row and the driver lock on SQL Server, executed on the ledger store's state connection, for
 * {@link DriverLockedLease}'s claim. The driver lock is an exclusive {@code sp_getapplock} owned by the session, tried
 * with {@code @LockTimeout = 0} (any result below zero refuses).
 */
final class MssqlCampaignLeases implements DriverLockedLease.Statements {
    private final MssqlLedgerSql sql;
    private final MssqlLedgerStatements statements;

    MssqlCampaignLeases(MssqlLedgerSql sql, MssqlLedgerStatements statements) {
        this.sql = sql;
        this.statements = statements;
    }

    @Override
    public boolean tryDriverLock(String runKey) throws SQLException {
        return MssqlAppLock.tryAcquire(sql.connection(), statements.driverLockName(runKey));
    }

    @Override
    public void releaseDriverLock(String runKey) throws SQLException {
        MssqlAppLock.release(sql.connection(), statements.driverLockName(runKey));
    }

    @Override
    public CampaignClaim.Held holder(String runKey) throws SQLException {
        return sql.one(statements.leaseHolder(), rs -> CampaignClaim.heldBy(rs.getString("lease_owner"),
                MssqlLedgerSql.instant(rs, "lease_since"), MssqlLedgerSql.instant(rs, "lease_expires")), runKey)
                .orElseGet(() -> CampaignClaim.heldBy(null, null, null));
    }

    /** Reads the holder before the update, under the lock: only a driver holding the lock writes the lease row. */
    @Override
    public Optional<CampaignClaim.Taken> takeOverLease(String runKey, String owner, long ttlMillis) throws SQLException {
        CampaignClaim.Held before = holder(runKey);
        return sql.one(statements.takeOverLease(), rs -> {
            Instant since = MssqlLedgerSql.instant(rs, "lease_since");
            boolean wasLive = before.owner() != null && before.leaseExpires() != null
                    && !before.leaseExpires().isBefore(since);
            return CampaignClaim.tookOver(new CampaignLease(runKey, owner, rs.getLong("lease_epoch")),
                    wasLive ? before.owner() : null);
        }, owner, Math.toIntExact(ttlMillis), runKey);
    }

    @Override
    public Optional<CampaignLease> acquireLease(String runKey, String owner, long ttlMillis) throws SQLException {
        return sql.one(statements.acquireLease(), rs -> new CampaignLease(runKey, owner, rs.getLong("lease_epoch")),
                owner, owner, owner, Math.toIntExact(ttlMillis), runKey, owner);
    }

    @Override
    public boolean renewLease(CampaignLease lease, long ttlMillis) throws SQLException {
        return sql.update(statements.renewLease(), Math.toIntExact(ttlMillis), lease.runKey(), lease.owner(),
                lease.epoch()) == 1;
    }

    @Override
    public boolean renewHoldingDriverLock(CampaignLease lease, long ttlMillis) throws SQLException {
        return sql.update(statements.renewHoldingDriverLock(), Math.toIntExact(ttlMillis),
                statements.driverLockName(lease.runKey()), lease.runKey(), lease.owner(), lease.epoch()) == 1;
    }

    @Override
    public void releaseLease(CampaignLease lease) throws SQLException {
        sql.update(statements.releaseLease(), lease.runKey(), lease.owner(), lease.epoch());
    }
}

package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.CampaignIdentity;
import io.dpone.backfill.targets.DriverLockedLease;
import io.dpone.backfill.targets.ledger.CampaignStatements;
import io.dpone.backfill.targets.mssql.MssqlAppLock;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The campaign row's statements on SQL Server, executed on the ledger's state connection: the row, its lease and
 * the driver lock for {@link DriverLockedLease}'s claim, and its holder's fenced writes. The driver lock is an
 * exclusive {@code sp_getapplock} owned by the session, tried with {@code @LockTimeout = 0} (any result below zero
 * refuses). The text of every statement is {@link MssqlLedgerText}'.
 */
final class MssqlCampaignStatements implements CampaignStatements {
    private final MssqlJdbc sql;
    private final MssqlLedgerText statements;

    MssqlCampaignStatements(MssqlJdbc sql, MssqlLedgerText statements) {
        this.sql = sql;
        this.statements = statements;
    }

    /** Looked up with OBJECT_ID, so asking creates nothing. */
    @Override
    public boolean ledgerPresent() throws SQLException {
        return sql.one(MssqlLedgerText.tableExists(), rs -> rs.getInt("present") == 1,
                statements.campaignObjectName()).orElse(false);
    }

    @Override
    public Optional<CampaignRecord> byRunKey(String runKey) throws SQLException {
        return sql.one(statements.campaignByRunKey(), MssqlLedgerRows.ROWS::campaign, runKey);
    }

    @Override
    public Optional<CampaignRecord> byBackfillId(String backfillId) throws SQLException {
        return sql.one(statements.campaignByBackfillId(), MssqlLedgerRows.ROWS::campaign, backfillId);
    }

    @Override
    public void insert(CampaignBlueprint blueprint, String specJson) throws SQLException {
        CampaignIdentity identity = blueprint.identity();
        sql.update(statements.insertCampaign(), identity.runKey(), blueprint.definition().spec().getBackfillId(),
                identity.planDigest(), identity.configDigest(), specJson, blueprint.plan().size(),
                CampaignPhase.Planned.name());
    }

    @Override
    public boolean transition(CampaignLease lease, CampaignPhase from, CampaignPhase to, String detailJson)
            throws SQLException {
        return fenced(statements.transition(), lease, to.name(), detailJson, from.name());
    }

    @Override
    public boolean recordAnchor(CampaignLease lease, String anchorXmin) throws SQLException {
        return fenced(statements.recordAnchor(), lease, anchorXmin, anchorXmin);
    }

    @Override
    public boolean recordShapes(CampaignLease lease, String sourceShapeDigest, String targetShapeDigest,
                                String liveBaselineJson) throws SQLException {
        return fenced(statements.recordShapes(), lease, sourceShapeDigest, targetShapeDigest, liveBaselineJson);
    }

    @Override
    public boolean recordRowEncoding(CampaignLease lease, String rowEncoding) throws SQLException {
        return fenced(statements.recordRowEncoding(), lease, rowEncoding);
    }

    @Override
    public boolean setStopRequested(CampaignLease lease, boolean stop) throws SQLException {
        return fenced(statements.setStopRequested(), lease, stop);
    }

    @Override
    public boolean proveLease(CampaignLease lease) throws SQLException {
        return fenced(statements.proveLease(), lease);
    }

    @Override
    public boolean touch(CampaignLease lease) throws SQLException {
        return fenced(statements.touchUnderLease(), lease);
    }

    /** A fenced campaign update: {@code values} are its SET and condition parameters in order, then the lease. */
    private boolean fenced(String statement, CampaignLease lease, Object... values) throws SQLException {
        Object[] params = new Object[values.length + 3];
        System.arraycopy(values, 0, params, 0, values.length);
        params[values.length] = lease.runKey();
        params[values.length + 1] = lease.owner();
        params[values.length + 2] = lease.epoch();
        return sql.update(statement, params) == 1;
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
                MssqlJdbc.instant(rs, "lease_since"), MssqlJdbc.instant(rs, "lease_expires")), runKey)
                .orElseGet(() -> CampaignClaim.heldBy(null, null, null));
    }

    /** Reads the holder before the update, under the lock: only a driver holding the lock writes the lease row. */
    @Override
    public Optional<CampaignClaim.Taken> takeOverLease(String runKey, String owner, long ttlMillis) throws SQLException {
        CampaignClaim.Held before = holder(runKey);
        return sql.one(statements.takeOverLease(), rs -> {
            Instant since = MssqlJdbc.instant(rs, "lease_since");
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

    @Override
    public void approve(String runKey, String approvedBy) throws SQLException {
        sql.update(statements.approve(), approvedBy, runKey);
    }

    @Override
    public Optional<io.dpone.backfill.core.ledger.PublicationApproval> approval(String runKey) throws SQLException {
        return sql.one(statements.approval(), rs -> new io.dpone.backfill.core.ledger.PublicationApproval(
                rs.getString("approved_by"), MssqlJdbc.instant(rs, "approved_at")), runKey);
    }

    @Override
    public boolean recordThrottle(String runKey, io.dpone.backfill.core.ledger.ThrottleSetting setting) throws SQLException {
        return sql.update(statements.recordThrottle(), setting.rowsPerSecond(), setting.bytesPerSecond(), setting.lanes(),
                runKey) == 1;
    }

    @Override
    public void recordClaimPause(String runKey, String pause) throws SQLException {
        sql.update(statements.recordClaimPause(), pause, runKey);
    }

    @Override
    public Optional<String> claimPause(String runKey) throws SQLException {
        return sql.one(statements.claimPause(), rs -> rs.getString("claim_pause"), runKey);
    }

    @Override
    public io.dpone.backfill.core.ledger.ThrottleSetting throttle(String runKey) throws SQLException {
        return sql.one(statements.throttle(), rs -> new io.dpone.backfill.core.ledger.ThrottleSetting(
                        rs.getLong("throttle_rows_per_second"), rs.getLong("throttle_bytes_per_second"),
                        rs.getInt("throttle_lanes")), runKey)
                .orElse(io.dpone.backfill.core.ledger.ThrottleSetting.NONE);
    }
}

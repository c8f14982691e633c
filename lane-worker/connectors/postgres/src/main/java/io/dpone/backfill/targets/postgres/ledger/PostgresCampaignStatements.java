package io.dpone.backfill.targets.postgres.ledger;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.targets.ledger.CampaignStatements;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

import static io.dpone.backfill.targets.postgres.ledger.PostgresLedgerRows.CAMPAIGN_COLUMNS;

/** The campaign row's statements on PostgreSQL: the row, its lease and driver lock (ADR 0016), its holder's fenced writes. */
public final class PostgresCampaignStatements extends PostgresLedgerTables implements CampaignStatements {

    public PostgresCampaignStatements(Connection connection, String stateSchema) {
        super(connection, stateSchema);
    }

    @Override
    public Optional<CampaignRecord> byRunKey(String runKey) throws SQLException {
        return campaign("run_key", runKey);
    }

    @Override
    public Optional<CampaignRecord> byBackfillId(String backfillId) throws SQLException {
        return campaign("backfill_id", backfillId);
    }


    private Optional<CampaignRecord> campaign(String keyColumn, String key) throws SQLException {
        return sql.one("SELECT " + CAMPAIGN_COLUMNS + " FROM " + campaign + " WHERE " + keyColumn + " = ?",
                PostgresLedgerRows.ROWS::campaign, key);
    }

    @Override
    public void insert(CampaignBlueprint blueprint, String specJson) throws SQLException {
        String phase = CampaignPhase.Planned.name();
        sql.update("INSERT INTO " + campaign + " (run_key, backfill_id, plan_digest, config_digest, spec_json,"
                        + " chunk_total, phase) VALUES (?, ?, ?, ?, ?, ?, ?)", blueprint.identity().runKey(),
                blueprint.definition().spec().getBackfillId(), blueprint.identity().planDigest(),
                blueprint.identity().configDigest(), specJson, blueprint.plan().size(), phase);
    }

    @Override
    public Optional<CampaignLease> acquireLease(String runKey, String owner, long ttlMillis) throws SQLException {
        return sql.one("UPDATE " + campaign
                        + " SET lease_epoch = CASE WHEN lease_owner = ? THEN lease_epoch ELSE lease_epoch + 1 END,"
                        + " lease_since = CASE WHEN lease_owner = ? THEN coalesce(lease_since, now()) ELSE now() END,"
                        + " lease_owner = ?, lease_expires = " + TTL
                        + " WHERE run_key = ? AND (lease_owner IS NULL OR lease_expires < now() OR lease_owner = ?)"
                        + " RETURNING lease_epoch",
                rs -> new CampaignLease(runKey, owner, rs.getLong("lease_epoch")),
                owner, owner, owner, ttlMillis, runKey, owner);
    }

    /**
     * The takeover by a driver that was just granted the campaign's driver lock: whatever the lease row says, the
     * lease becomes this owner's with epoch + 1. Returns the new epoch and the owner the row held before, if its
     * lease was still live (that driver's session is gone, or the lock would not have been granted).
     */
    @Override
    public Optional<CampaignClaim.Taken> takeOverLease(String runKey, String owner, long ttlMillis) throws SQLException {
        return sql.one("WITH before AS (SELECT run_key, lease_owner, lease_expires >= now() AS live FROM " + campaign
                        + " WHERE run_key = ? FOR UPDATE)"
                        + " UPDATE " + campaign + " c SET lease_epoch = c.lease_epoch + 1, lease_owner = ?,"
                        + " lease_expires = " + TTL + ", lease_since = now()"
                        + " FROM before b WHERE c.run_key = b.run_key"
                        + " RETURNING c.lease_epoch, CASE WHEN b.live THEN b.lease_owner END AS live_owner",
                rs -> CampaignClaim.tookOver(new CampaignLease(runKey, owner, rs.getLong("lease_epoch")),
                        rs.getString("live_owner")),
                runKey, owner, ttlMillis);
    }

    /** Who the lease row names, for a driver waiting on the driver lock (all null when nobody, or no row). */
    @Override
    public CampaignClaim.Held holder(String runKey) throws SQLException {
        return sql.one("SELECT lease_owner, lease_since, lease_expires FROM " + campaign + " WHERE run_key = ?",
                rs -> CampaignClaim.heldBy(rs.getString("lease_owner"), PostgresLedgerRows.instant(rs, "lease_since"),
                        PostgresLedgerRows.instant(rs, "lease_expires")), runKey)
                .orElseGet(() -> CampaignClaim.heldBy(null, null, null));
    }

    @Override
    public boolean renewLease(CampaignLease lease, long ttlMillis) throws SQLException {
        return fenced("lease_expires = " + TTL, "", lease, ttlMillis);
    }

    @Override
    public void releaseLease(CampaignLease lease) throws SQLException {
        sql.update("UPDATE " + campaign + " SET lease_owner = NULL, lease_expires = NULL, lease_since = NULL"
                + " WHERE run_key = ? AND lease_owner = ? AND lease_epoch = ?", lease.runKey(), lease.owner(), lease.epoch());
    }

    /** A renewal that also proves this session still holds the campaign's driver lock. */
    @Override
    public boolean renewHoldingDriverLock(CampaignLease lease, long ttlMillis) throws SQLException {
        return fenced("lease_expires = " + TTL, HOLDS_LOCK + " AND ", lease, ttlMillis, driverLockName(lease.runKey()));
    }

    /** Session level, never waits: true when granted (or already held by this session, which stacks it once more). */
    @Override
    public boolean tryDriverLock(String runKey) throws SQLException {
        return tryAdvisoryLock(driverLockName(runKey));
    }

    /** A lock this session does not hold is left alone (the server answers false, with a warning). */
    @Override
    public void releaseDriverLock(String runKey) throws SQLException {
        sql.one("SELECT pg_catalog.pg_advisory_unlock(" + LOCK_KEY + ") AS released", rs -> rs.getBoolean("released"),
                driverLockName(runKey)).orElse(false);
    }

    @Override
    public boolean transition(CampaignLease lease, CampaignPhase from, CampaignPhase to, String detailJson)
            throws SQLException {
        return fenced("phase = ?, detail = coalesce(?, detail), updated_at = now()", "phase = ? AND ", lease, to.name(),
                detailJson, from.name());
    }

    @Override
    public boolean recordAnchor(CampaignLease lease, String anchorXmin) throws SQLException {
        return fenced("anchor_xmin = coalesce(anchor_xmin, ?)", "(anchor_xmin IS NULL OR anchor_xmin = ?) AND ", lease,
                anchorXmin, anchorXmin);
    }

    @Override
    public boolean recordShapes(CampaignLease lease, String sourceShapeDigest, String targetShapeDigest,
                                String liveBaselineJson) throws SQLException {
        return fenced("source_shape_digest = ?, target_shape_digest = ?, live_baseline = ?", "", lease, sourceShapeDigest,
                targetShapeDigest, liveBaselineJson);
    }

    @Override
    public boolean recordRowEncoding(CampaignLease lease, String rowEncoding) throws SQLException {
        return fenced("row_encoding = ?", "", lease, rowEncoding);
    }

    @Override
    public boolean setStopRequested(CampaignLease lease, boolean stop) throws SQLException {
        return fenced("stop_requested = ?", "", lease, stop);
    }

    @Override
    public boolean proveLease(CampaignLease lease) throws SQLException {
        return fenced("lease_epoch = lease_epoch", "", lease);
    }

    @Override
    public boolean touch(CampaignLease lease) throws SQLException {
        return fenced("updated_at = now()", "", lease);
    }

    @Override
    public void approve(String runKey, String approvedBy) throws SQLException {
        sql.update("UPDATE " + campaign + " SET approved_by = ?, approved_at = now() WHERE run_key = ? AND approved_by IS NULL",
                approvedBy, runKey);
    }

    @Override
    public Optional<io.dpone.backfill.core.ledger.PublicationApproval> approval(String runKey) throws SQLException {
        return sql.one("SELECT approved_by, approved_at FROM " + campaign + " WHERE run_key = ? AND approved_by IS NOT NULL",
                rs -> new io.dpone.backfill.core.ledger.PublicationApproval(rs.getString(1), rs.getTimestamp(2).toInstant()),
                runKey);
    }

    @Override
    public boolean recordThrottle(String runKey, io.dpone.backfill.core.ledger.ThrottleSetting setting) throws SQLException {
        return sql.update("UPDATE " + campaign + " SET throttle_rows_per_second = ?, throttle_bytes_per_second = ?,"
                + " throttle_lanes = ? WHERE run_key = ?", setting.rowsPerSecond(), setting.bytesPerSecond(),
                setting.lanes(), runKey) == 1;
    }

    @Override
    public void recordClaimPause(String runKey, String pause) throws SQLException {
        sql.update("UPDATE " + campaign + " SET claim_pause = ? WHERE run_key = ?", pause, runKey);
    }

    @Override
    public Optional<String> claimPause(String runKey) throws SQLException {
        return sql.one("SELECT claim_pause FROM " + campaign + " WHERE run_key = ? AND claim_pause IS NOT NULL",
                rs -> rs.getString(1), runKey);
    }

    @Override
    public io.dpone.backfill.core.ledger.ThrottleSetting throttle(String runKey) throws SQLException {
        return sql.one("SELECT throttle_rows_per_second, throttle_bytes_per_second, throttle_lanes FROM " + campaign
                        + " WHERE run_key = ? AND throttle_lanes IS NOT NULL",
                rs -> new io.dpone.backfill.core.ledger.ThrottleSetting(rs.getLong(1), rs.getLong(2), rs.getInt(3)),
                runKey).orElse(io.dpone.backfill.core.ledger.ThrottleSetting.NONE);
    }
}

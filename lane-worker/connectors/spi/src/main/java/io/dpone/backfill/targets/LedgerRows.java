package io.dpone.backfill.targets;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.ChunkState;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The ledger's rows as the domain's records. Every database's ledger script (ledger/v1) has the same tables and
 * column names, so one mapping serves them all; how a timestamp column is read is the one thing a database decides.
 */
public final class LedgerRows {
    /** Reads a timestamp column as an instant (null for SQL NULL), the way the database stores it. */
    @FunctionalInterface
    public interface TimestampColumn {
        Instant read(ResultSet rs, String column) throws SQLException;
    }

    private final TimestampColumn timestamps;

    public LedgerRows(TimestampColumn timestamps) {
        this.timestamps = timestamps;
    }

    public CampaignRecord campaign(ResultSet rs) throws SQLException {
        return new CampaignRecord(rs.getString("run_key"), rs.getString("backfill_id"), rs.getString("plan_digest"),
                rs.getString("config_digest"), rs.getString("spec_json"), CampaignPhase.valueOf(rs.getString("phase")),
                rs.getString("detail"), rs.getString("anchor_xmin"), rs.getString("source_shape_digest"),
                rs.getString("target_shape_digest"), rs.getString("live_baseline"), rs.getString("row_encoding"),
                rs.getString("lease_owner"), rs.getLong("lease_epoch"), timestamps.read(rs, "lease_expires"),
                rs.getBoolean("stop_requested"), timestamps.read(rs, "created_at"), timestamps.read(rs, "updated_at"));
    }

    /** A chunk row; {@code lease_expired} is computed by the database, so expiry never depends on the JVM's clock. */
    public ChunkRecord chunk(ResultSet rs) throws SQLException {
        long estimated = rs.getLong("rows_estimated");
        Long rowsEstimated = rs.wasNull() ? null : estimated;
        return new ChunkRecord(rs.getInt("chunk_id"), rs.getString("lower_bound"), rs.getString("upper_bound"),
                ChunkState.fromDb(rs.getString("state")), rs.getInt("attempts"), rs.getString("owner"),
                rs.getLong("epoch"), timestamps.read(rs, "lease_expires"), rs.getBoolean("lease_expired"),
                rs.getLong("rows_extracted"), rs.getLong("rows_loaded"), rs.getString("last_error"), rowsEstimated);
    }

    public PublicationReceipt publication(ResultSet rs) throws SQLException {
        return new PublicationReceipt(rs.getString("run_key"), rs.getString("receipt_id"),
                rs.getString("target_schema"), rs.getString("live_table"), rs.getString("backup_table"),
                rs.getString("shadow_table"), rs.getLong("rows_published"), timestamps.read(rs, "published_at"));
    }

    public HandoffReceipt handoff(ResultSet rs) throws SQLException {
        return new HandoffReceipt(rs.getString("run_key"), rs.getString("receipt_id"), rs.getString("anchor_xmin"),
                timestamps.read(rs, "committed_at"));
    }

    public RollbackReceipt rollback(ResultSet rs) throws SQLException {
        return new RollbackReceipt(rs.getString("run_key"), rs.getString("receipt_id"), rs.getString("reason"),
                timestamps.read(rs, "rolled_back_at"), rs.getString("accepted_writes"));
    }
}

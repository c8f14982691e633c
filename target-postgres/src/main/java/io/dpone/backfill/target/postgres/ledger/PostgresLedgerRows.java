package io.dpone.backfill.target.postgres.ledger;

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
import java.time.OffsetDateTime;

/** Column lists and row mappers of the ledger tables, kept beside each other so a select and its mapper agree. */
public final class PostgresLedgerRows {
    static final String CAMPAIGN_COLUMNS = "run_key, backfill_id, plan_digest, config_digest, spec_json, phase, detail,"
            + " anchor_xmin, source_shape_digest, target_shape_digest, live_baseline, row_encoding, lease_owner, lease_epoch, lease_expires,"
            + " stop_requested, created_at, updated_at";

    /** {@code lease_expired} is computed by the database so that expiry never depends on the JVM's clock. */
    static final String CHUNK_COLUMNS = "chunk_id, lower_bound, upper_bound, state, attempts, owner, epoch,"
            + " lease_expires, coalesce(lease_expires < now(), false) AS lease_expired, rows_extracted, rows_loaded,"
            + " last_error, rows_estimated";

    static final String PUBLICATION_COLUMNS = "run_key, receipt_id, target_schema, live_table, backup_table,"
            + " shadow_table, rows_published, published_at";

    static final String HANDOFF_COLUMNS = "run_key, receipt_id, anchor_xmin, committed_at";

    static final String ROLLBACK_COLUMNS = "run_key, receipt_id, reason, rolled_back_at, accepted_writes";

    private PostgresLedgerRows() {
    }

    static CampaignRecord campaign(ResultSet rs) throws SQLException {
        return new CampaignRecord(rs.getString("run_key"), rs.getString("backfill_id"), rs.getString("plan_digest"),
                rs.getString("config_digest"), rs.getString("spec_json"), CampaignPhase.valueOf(rs.getString("phase")),
                rs.getString("detail"), rs.getString("anchor_xmin"), rs.getString("source_shape_digest"),
                rs.getString("target_shape_digest"), rs.getString("live_baseline"), rs.getString("row_encoding"), rs.getString("lease_owner"), rs.getLong("lease_epoch"),
                instant(rs, "lease_expires"), rs.getBoolean("stop_requested"), instant(rs, "created_at"),
                instant(rs, "updated_at"));
    }

    static ChunkRecord chunk(ResultSet rs) throws SQLException {
        return new ChunkRecord(rs.getInt("chunk_id"), rs.getString("lower_bound"), rs.getString("upper_bound"),
                ChunkState.fromDb(rs.getString("state")), rs.getInt("attempts"), rs.getString("owner"),
                rs.getLong("epoch"), instant(rs, "lease_expires"), rs.getBoolean("lease_expired"),
                rs.getLong("rows_extracted"), rs.getLong("rows_loaded"), rs.getString("last_error"),
                (Long) rs.getObject("rows_estimated"));
    }

    static PublicationReceipt publication(ResultSet rs) throws SQLException {
        return new PublicationReceipt(rs.getString("run_key"), rs.getString("receipt_id"),
                rs.getString("target_schema"), rs.getString("live_table"), rs.getString("backup_table"),
                rs.getString("shadow_table"), rs.getLong("rows_published"), instant(rs, "published_at"));
    }

    static HandoffReceipt handoff(ResultSet rs) throws SQLException {
        return new HandoffReceipt(rs.getString("run_key"), rs.getString("receipt_id"), rs.getString("anchor_xmin"),
                instant(rs, "committed_at"));
    }

    static RollbackReceipt rollback(ResultSet rs) throws SQLException {
        return new RollbackReceipt(rs.getString("run_key"), rs.getString("receipt_id"), rs.getString("reason"),
                instant(rs, "rolled_back_at"), rs.getString("accepted_writes"));
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}

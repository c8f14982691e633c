package io.dpone.backfill.target.mssql.ledger;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.ChunkState;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;

import java.sql.ResultSet;
import java.sql.SQLException;

import static io.dpone.backfill.target.mssql.ledger.MssqlLedgerSql.instant;

/** Row mappers of the ledger tables, for the column lists in {@link MssqlLedgerStatements}. */
final class MssqlLedgerRows {
    private MssqlLedgerRows() {
    }

    static CampaignRecord campaign(ResultSet rs) throws SQLException {
        return new CampaignRecord(rs.getString("run_key"), rs.getString("backfill_id"), rs.getString("plan_digest"),
                rs.getString("config_digest"), rs.getString("spec_json"), CampaignPhase.valueOf(rs.getString("phase")),
                rs.getString("detail"), rs.getString("anchor_xmin"), rs.getString("source_shape_digest"),
                rs.getString("target_shape_digest"), rs.getString("live_baseline"), rs.getString("row_encoding"), rs.getString("lease_owner"),
                rs.getLong("lease_epoch"), instant(rs, "lease_expires"), rs.getBoolean("stop_requested"),
                instant(rs, "created_at"), instant(rs, "updated_at"));
    }

    static ChunkRecord chunk(ResultSet rs) throws SQLException {
        long estimated = rs.getLong("rows_estimated");
        Long rowsEstimated = rs.wasNull() ? null : estimated;
        return new ChunkRecord(rs.getInt("chunk_id"), rs.getString("lower_bound"), rs.getString("upper_bound"),
                ChunkState.fromDb(rs.getString("state")), rs.getInt("attempts"), rs.getString("owner"),
                rs.getLong("epoch"), instant(rs, "lease_expires"), rs.getBoolean("lease_expired"),
                rs.getLong("rows_extracted"), rs.getLong("rows_loaded"), rs.getString("last_error"), rowsEstimated);
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
}

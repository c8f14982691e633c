package io.dpone.backfill.targets.postgres.ledger;

import io.dpone.backfill.targets.LedgerRows;

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

    /** The ledger rows as records; PostgreSQL keeps timestamps as timestamptz. */
    static final LedgerRows ROWS = new LedgerRows(PostgresLedgerRows::instant);

    private PostgresLedgerRows() {
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}

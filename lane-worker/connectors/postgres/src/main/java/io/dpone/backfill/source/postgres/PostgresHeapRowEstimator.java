package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.source.ChunkRowEstimates;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Rows per physical chunk for the ETA (ADR 0012): the table's tuples per page at its last ANALYZE (or VACUUM) times
 * the pages in each block range, the last range reaching the table's current end. Reads only the catalog; a table
 * never analyzed has no estimate (the ETA then falls back to averages).
 */
final class PostgresHeapRowEstimator {
    private final Connection source;

    PostgresHeapRowEstimator(Connection source) {
        this.source = source;
    }

    ChunkRowEstimates estimate(String schema, String table, ChunkPlan plan) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("SELECT c.reltuples::float8, c.relpages,"
                + " pg_catalog.pg_relation_size(c.oid) / pg_catalog.current_setting('block_size')::bigint"
                + " FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return ChunkRowEstimates.none("source table " + schema + "." + table + " not found");
                }
                double reltuples = rs.getDouble(1);
                long relpages = rs.getLong(2);
                long pagesNow = rs.getLong(3);
                if (reltuples < 0 || relpages <= 0) {
                    return ChunkRowEstimates.none("source table " + schema + "." + table + " was never analyzed");
                }
                double perPage = reltuples / relpages;
                List<Long> rows = new ArrayList<>(plan.size());
                for (ChunkRange c : plan.chunks()) {
                    long lower = c.lowerInclusive().longValueExact();
                    long upper = c.upperExclusive() == null ? pagesNow : c.upperExclusive().longValueExact();
                    rows.add(Math.round(perPage * Math.max(0, upper - lower)));
                }
                return new ChunkRowEstimates(String.format(Locale.ROOT, "pg_class: %.1f tuples per page over %d"
                        + " pages", perPage, pagesNow), rows);
            }
        }
    }
}

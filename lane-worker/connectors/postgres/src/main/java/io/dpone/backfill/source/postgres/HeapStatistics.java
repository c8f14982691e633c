package io.dpone.backfill.source.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What the catalog knows of a table's heap, for predicting its reads (ADR 0055): its pages now, its tuples (the
 * last ANALYZE's tuples per page times the pages now, as the planner scales them), and the chunk column's
 * {@code pg_stats.correlation} (null without statistics, or for physical chunks, which have no column).
 */
record HeapStatistics(long pages, double tuples, Double correlation, boolean analyzed) {
    private static final String QUERY = """
            SELECT pg_catalog.pg_relation_size(c.oid, 'main') / pg_catalog.current_setting('block_size')::bigint,
                   c.reltuples::float8, c.relpages, s.correlation::float8
              FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
              LEFT JOIN pg_catalog.pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname
                   AND s.attname = ? AND NOT s.inherited
             WHERE n.nspname = ? AND c.relname = ?""";

    /** Empty when the table does not exist. {@code column} null: no correlation is read. */
    static Optional<HeapStatistics> read(Connection source, String schema, String table, String column)
            throws SQLException {
        try (PreparedStatement ps = source.prepareStatement(QUERY)) {
            ps.setString(1, column);
            ps.setString(2, schema);
            ps.setString(3, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                long pages = rs.getLong(1);
                double reltuples = rs.getDouble(2);
                long relpages = rs.getLong(3);
                double correlation = rs.getDouble(4);
                Double measured = rs.wasNull() ? null : correlation;
                boolean analyzed = reltuples >= 0;
                double tuples = !analyzed ? 0 : relpages > 0 ? reltuples / relpages * pages : reltuples;
                return Optional.of(new HeapStatistics(pages, tuples, measured, analyzed));
            }
        }
    }

    /** At least one: a page holds at least the row on it. */
    double tuplesPerPage() {
        return pages == 0 ? 1 : Math.max(1, tuples / pages);
    }

    /** The share of a key range's rows that lie in key order, {@code |correlation|} (0 without statistics). */
    double orderedShare() {
        return correlation == null ? 0 : Math.min(1, Math.abs(correlation));
    }
}

package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.UuidKeys;
import io.dpone.backfill.core.source.ChunkRowEstimates;
import io.dpone.backfill.core.source.KeyDistribution;
import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.math.BigInteger;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Rows per chunk of a source table, for the ETA (ADR 0012), at a cost that does not grow with the table:
 * <ol>
 * <li>Statistics, when ANALYZE left them and they are fresh: {@code pg_class.reltuples} scaled to the table's current
 * size (as the planner does), and the chunk column's {@code pg_stats} null fraction, most common values and
 * histogram. Reads only the catalog.</li>
 * <li>Otherwise (never analyzed, no histogram, or more than {@value #STALE_SHARE} of the rows modified since), a
 * block sample: {@code TABLESAMPLE SYSTEM} of about {@value #SAMPLE_PAGES} pages (about 16 MB at the default 8 kB
 * block size) whatever the table's size, counted per chunk by the server with {@code width_bucket} over the chunks'
 * lower bounds, which selects exactly what the chunk predicates {@code key >= lower AND key < upper} select.
 * Tables up to that size are read whole, so their estimate is exact. A 500M-row table is sampled at well under 1%.</li>
 * </ol>
 * Block sampling sees clustered keys in clusters, so a sample of a table whose key order follows its physical order
 * is coarser than a histogram; the basis names which one was used.
 */
public final class PostgresRowEstimator {
    static final int SAMPLE_PAGES = 2000;
    static final double STALE_SHARE = 0.2;

    private final Connection source;
    private final int samplePages;

    PostgresRowEstimator(Connection source) {
        this(source, SAMPLE_PAGES);
    }

    /** {@code samplePages} smaller than the default lets a test sample a table that fits in memory. */
    PostgresRowEstimator(Connection source, int samplePages) {
        this.source = source;
        this.samplePages = samplePages;
    }

    ChunkRowEstimates estimate(String schema, String table, ChunkPlan plan) throws SQLException {
        String type = plan.kind() == ChunkKind.UUID ? "uuid" : "bigint";
        try (PreparedStatement ps = source.prepareStatement("SELECT c.reltuples::float8 AS reltuples, c.relpages,"
                + " pg_catalog.pg_relation_size(c.oid) / current_setting('block_size')::int AS pages_now,"
                + " st.n_mod_since_analyze, s.null_frac,"
                + " s.histogram_bounds::text::" + type + "[]::text[] AS bounds,"
                + " s.most_common_vals::text::" + type + "[]::text[] AS common_values,"
                + " s.most_common_freqs::float8[] AS common_freqs"
                + " FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                + " LEFT JOIN pg_catalog.pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname"
                + " AND s.attname = ? AND NOT s.inherited"
                + " LEFT JOIN pg_catalog.pg_stat_all_tables st ON st.relid = c.oid"
                + " WHERE n.nspname = ? AND c.relname = ?")) {
            ps.setString(1, plan.column());
            ps.setString(2, schema);
            ps.setString(3, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return ChunkRowEstimates.none("source table " + schema + "." + table + " not found");
                }
                double reltuples = rs.getDouble("reltuples");
                long relpages = rs.getLong("relpages");
                long pagesNow = rs.getLong("pages_now");
                long modified = rs.getLong("n_mod_since_analyze");
                List<BigInteger> bounds = keys(plan, rs.getArray("bounds"));
                List<BigInteger> common = keys(plan, rs.getArray("common_values"));
                List<Double> freqs = doubles(rs.getArray("common_freqs"));
                boolean analyzed = reltuples >= 0 && (bounds.size() >= 2 || !common.isEmpty());
                boolean stale = modified > STALE_SHARE * Math.max(reltuples, 1);
                if (analyzed && !stale) {
                    // The planner's own correction: tuples per page at the last ANALYZE times the pages there are now.
                    long rows = Math.round(relpages > 0 ? reltuples / relpages * pagesNow : reltuples);
                    return new ChunkRowEstimates(String.format(Locale.ROOT,
                            "pg_stats histogram of %d bounds and %d common values, %d rows", bounds.size(),
                            common.size(), rows), KeyDistribution.fromStatistics(plan, rows,
                            rs.getDouble("null_frac"), bounds, common, freqs));
                }
                return sample(schema, table, plan, type, pagesNow);
            }
        }
    }

    private ChunkRowEstimates sample(String schema, String table, ChunkPlan plan, String type, long pages)
            throws SQLException {
        long[] counts = new long[plan.size()];
        if (pages == 0) {
            return new ChunkRowEstimates("empty table (0 pages)", KeyDistribution.fromSample(counts, 1.0));
        }
        double percent = Math.min(100.0, 100.0 * samplePages / pages);
        String[] lowers = new String[plan.size() - 1];
        for (int i = 1; i < plan.size(); i++) {
            lowers[i - 1] = plan.boundText(plan.chunk(i).lowerInclusive());
        }
        String column = PostgresIdentifiers.quote(plan.column()) + "::" + type;
        String bucket = plan.size() == 1 ? "0" : "width_bucket(" + column + ", ?::" + type + "[])";
        long sampled = 0;
        Array thresholds = source.createArrayOf("text", lowers);
        try (PreparedStatement ps = source.prepareStatement("SELECT " + bucket + " AS chunk, count(*) AS n FROM "
                + PostgresIdentifiers.qualified(schema, table) + " TABLESAMPLE SYSTEM (?) REPEATABLE (0)"
                + " WHERE " + PostgresIdentifiers.quote(plan.column()) + " IS NOT NULL GROUP BY 1")) {
            int p = 1;
            if (plan.size() > 1) {
                ps.setArray(p++, thresholds);
            }
            ps.setDouble(p, percent);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long n = rs.getLong("n");
                    counts[rs.getInt("chunk")] += n;
                    sampled += n;
                }
            }
        } finally {
            thresholds.free();
        }
        String basis = percent >= 100.0 ? String.format(Locale.ROOT, "count of all %d rows (table of %d pages)", sampled, pages)
                : String.format(Locale.ROOT, "sample of %d rows (TABLESAMPLE SYSTEM %.3f%% of %d pages)", sampled, percent, pages);
        return new ChunkRowEstimates(basis, KeyDistribution.fromSample(counts, percent / 100.0));
    }

    private static List<BigInteger> keys(ChunkPlan plan, Array array) throws SQLException {
        List<BigInteger> keys = new ArrayList<>();
        if (array == null) {
            return keys;
        }
        for (Object o : (Object[]) array.getArray()) {
            if (o != null) {
                keys.add(plan.kind() == ChunkKind.UUID ? UuidKeys.fromText(o.toString()) : new BigInteger(o.toString()));
            }
        }
        return keys;
    }

    private static List<Double> doubles(Array array) throws SQLException {
        List<Double> values = new ArrayList<>();
        if (array != null) {
            for (Object o : (Object[]) array.getArray()) {
                values.add(((Number) o).doubleValue());
            }
        }
        return values;
    }
}

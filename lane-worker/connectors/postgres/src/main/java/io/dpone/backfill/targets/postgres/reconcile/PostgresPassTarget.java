package io.dpone.backfill.targets.postgres.reconcile;

import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.reconcile.ChunkReconciled;
import io.dpone.backfill.core.reconcile.KeyBuckets;
import io.dpone.backfill.core.reconcile.PassTarget;
import io.dpone.backfill.core.reconcile.RangeBuckets;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.postgres.PostgresKeyText;
import io.dpone.backfill.source.postgres.PostgresChunkPredicate;
import io.dpone.backfill.targets.PassTable;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A reconciliation pass into a PostgreSQL published table (issue 38, ADR 0054). The survey stages, in temporary
 * tables of this session, the source's changed rows and key digests, and reads the published table once: its key
 * digests per range and bucket and the keys of rows someone else wrote after publication; the buckets that still differ
 * once the staged rows are counted in get their source keys staged, and one more read finds the rows the source no
 * longer has. Each range is then applied in one transaction from what was staged: others' keys queued, changed rows
 * upserted where they differ (never over a row someone else wrote), deleted rows deleted, the receipt committed,
 * fenced by the lease. A queued or kept key is never written; an accepted one is.
 */
public final class PostgresPassTarget implements PassTarget {
    private static final String ROWS = "bf_reconcile_rows";
    private static final String SOURCE_DIGESTS = "bf_reconcile_source_digests";
    private static final String TARGET_DIGESTS = "bf_reconcile_target_digests";
    private static final String NEW_DIGESTS = "bf_reconcile_new_digests";
    private static final String OTHERS = "bf_reconcile_others";
    private static final String DIFFERING = "bf_reconcile_differing";
    private static final String KEYS = "bf_reconcile_keys";
    private static final String CANDIDATES = "bf_reconcile_candidates";
    private static final String GONE = "bf_reconcile_gone";
    private static final String MISSING = "bf_reconcile_missing";
    /** The range number's column in the staged key tables: a name no published table's key is likely to have. */
    private static final String RANGE = PostgresIdentifiers.quote("dpone reconcile range");
    private static final List<String> STAGED = List.of(ROWS, SOURCE_DIGESTS, TARGET_DIGESTS, NEW_DIGESTS, OTHERS, DIFFERING, KEYS,
            CANDIDATES, GONE, MISSING);

    private final Connection target;
    private final PostgresJdbc jdbc;
    private final PassTable table;
    private final ReconcileTables tables;
    private final String live;
    private final List<String> columns;
    private final List<String> key;
    private final PostgresKeyText keyText;
    /** Ranges with buckets whose keys differed: their receipts say the keys were compared. */
    private final Set<Integer> compared = new HashSet<>();
    /** Ranges with staged rows, others' rows, rows to delete and keys lost: a range applies only the steps it needs. */
    private final Set<Integer> withRows = new HashSet<>();
    private final Set<Integer> withOthers = new HashSet<>();
    private final Set<Integer> withGone = new HashSet<>();
    private final Set<Integer> withMissing = new HashSet<>();
    /** Whether accepted keys wait: only then are written keys settled. */
    private boolean accepting;

    public PostgresPassTarget(Connection target, PassTable table) {
        this.target = target;
        this.jdbc = new PostgresJdbc(target);
        this.table = table;
        this.tables = new ReconcileTables(table.stateSchema());
        this.live = PostgresIdentifiers.qualified(table.schema(), table.table());
        this.columns = table.columns().target();
        this.key = table.key();
        try {
            this.keyText = PostgresKeyText.of(jdbc, live, key);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the key's types of " + live + ": " + e.getMessage(), e);
        }
    }

    @Override
    public RangeBuckets survey(List<ChunkRange> ranges, SourceRead changed, SourceRead sourceDigests) throws Exception {
        dropStaged();
        // The survey's aggregates hold a group per range and bucket; the default work_mem would spill them to disk.
        jdbc.update("SET work_mem = '256MB'");
        String rt = rangeNumber("t");
        String ours = tables.ours("t");
        // The published table is read while the source reads its changed rows and digests its keys: the two servers
        // work at once, and what the source sends waits in files until this session is free to take it.
        List<Path> spilled = SpilledReads.whileReading(List.of(changed, sourceDigests), () -> {
            jdbc.update("CREATE TEMPORARY TABLE " + TARGET_DIGESTS + " AS " + keyText.digests(live, "t", rt, ours),
                    table.runKey(), table.runKey());
            // Rows someone else wrote are rare: their keys are read only when the digests counted some.
            if (jdbc.bool("SELECT EXISTS (SELECT 1 FROM " + TARGET_DIGESTS + " WHERE others > 0)")) {
                jdbc.update("CREATE TEMPORARY TABLE " + OTHERS + " AS SELECT " + rt + " AS r, " + keyText.text("t") + " AS k FROM "
                        + live + " t WHERE NOT " + ours, table.runKey(), table.runKey());
            } else {
                jdbc.update("CREATE TEMPORARY TABLE " + OTHERS + " (r integer, k text)");
            }
        });
        jdbc.update("CREATE TEMPORARY TABLE " + ROWS + " AS SELECT " + list(columns, null) + " FROM " + live + " WITH NO DATA");
        SpilledReads.copyIn(target, "COPY " + ROWS + " (" + list(columns, null) + ") FROM STDIN", spilled.get(0));
        if (table.chunkColumn() != null) {
            jdbc.update("CREATE INDEX ON " + ROWS + " (" + PostgresIdentifiers.quote(table.chunkColumn()) + ")");
        }
        jdbc.update("CREATE INDEX ON " + ROWS + " (" + list(key, null) + ")");
        jdbc.update("ANALYZE " + ROWS);
        note(withRows, "SELECT DISTINCT " + rangeNumber("s") + " FROM " + ROWS + " s");
        note(withOthers, "SELECT DISTINCT r FROM " + OTHERS);
        withGone.clear();
        withMissing.clear();
        accepting = jdbc.bool("SELECT EXISTS (SELECT 1 FROM " + tables.queue + " WHERE run_key = ? AND decision = 'accept')",
                table.runKey());
        jdbc.update("CREATE TEMPORARY TABLE " + SOURCE_DIGESTS + " (r integer, b integer, n bigint, s numeric)");
        SpilledReads.copyIn(target, "COPY " + SOURCE_DIGESTS + " FROM STDIN", spilled.get(1));
        // The staged rows the published table lacks will be inserted: count them in, so only deletes (and others' hands)
        // leave buckets differing.
        jdbc.update("CREATE TEMPORARY TABLE " + NEW_DIGESTS + " AS " + keyText.digests("(SELECT * FROM " + ROWS + " s WHERE NOT EXISTS"
                + " (SELECT 1 FROM " + live + " t WHERE " + join("s", "t") + "))", "s", rangeNumber("s")));
        // A pair only the target has differs (the source's count is null), as does one whose counts or sums differ.
        jdbc.update("CREATE TEMPORARY TABLE " + DIFFERING + " AS SELECT coalesce(s.r, t.r) AS r, coalesce(s.b, t.b) AS b FROM "
                + SOURCE_DIGESTS + " s FULL JOIN " + TARGET_DIGESTS + " t ON t.r = s.r AND t.b = s.b LEFT JOIN " + NEW_DIGESTS
                + " n ON n.r = coalesce(s.r, t.r) AND n.b = coalesce(s.b, t.b) WHERE s.n IS DISTINCT FROM coalesce(t.n, 0)"
                + " + coalesce(n.n, 0) OR s.s IS DISTINCT FROM coalesce(t.s, 0) + coalesce(n.s, 0)");
        RangeBuckets differing = new RangeBuckets();
        compared.clear();
        for (int[] pair : jdbc.list("SELECT r, b FROM " + DIFFERING, rs -> new int[] {rs.getInt(1), rs.getInt(2)})) {
            differing.add(pair[0], pair[1]);
            compared.add(pair[0]);
        }
        return differing;
    }

    /** Replaces {@code ranges} with the range numbers {@code select} yields. */
    private void note(Set<Integer> ranges, String select) throws SQLException {
        ranges.clear();
        ranges.addAll(jdbc.list(select, rs -> rs.getInt(1)));
    }

    @Override
    public void stageKeys(List<ChunkRange> ranges, SourceRead sourceKeys) throws Exception {
        // The published table's keys in the differing buckets, read while the source reads its own.
        Path spilled = SpilledReads.whileReading(List.of(sourceKeys), () -> jdbc.update("CREATE TEMPORARY TABLE " + CANDIDATES + " AS SELECT "
                + rangeNumber("t") + " AS " + RANGE + ", " + list(key, "t") + " FROM " + live + " t WHERE "
                + keyText.pair(rangeNumber("t"), "t") + " IN (SELECT r * " + KeyBuckets.COUNT + " + b FROM " + DIFFERING + ")")).get(0);
        jdbc.update("CREATE TEMPORARY TABLE " + KEYS + " AS SELECT 0::integer AS " + RANGE + ", " + list(key, null) + " FROM "
                + live + " WITH NO DATA");
        SpilledReads.copyIn(target, "COPY " + KEYS + " FROM STDIN", spilled);
        jdbc.update("ANALYZE " + KEYS);
        jdbc.update("ANALYZE " + CANDIDATES);
        // Gone: the source has the key nowhere (a key it changed is staged, so never gone, wherever its row moved).
        jdbc.update("CREATE TEMPORARY TABLE " + GONE + " AS SELECT c.* FROM " + CANDIDATES + " c WHERE NOT EXISTS (SELECT 1 FROM "
                + KEYS + " s WHERE " + join("s", "c") + ") AND NOT EXISTS (SELECT 1 FROM " + ROWS + " s WHERE " + join("s", "c") + ")");
        // Missing: the published table has the key nowhere (looked up only for keys outside the candidates).
        jdbc.update("CREATE TEMPORARY TABLE " + MISSING + " AS SELECT s.* FROM " + KEYS + " s WHERE NOT EXISTS (SELECT 1 FROM "
                + CANDIDATES + " c WHERE " + join("s", "c") + ") AND NOT EXISTS (SELECT 1 FROM " + live + " t WHERE "
                + join("s", "t") + ") AND NOT EXISTS (SELECT 1 FROM " + ROWS + " c WHERE " + join("c", "s") + ")");
        note(withGone, "SELECT DISTINCT " + RANGE + " FROM " + GONE);
        note(withMissing, "SELECT DISTINCT " + RANGE + " FROM " + MISSING);
    }

    @Override
    public ChunkReconciled apply(CampaignLease lease, int pass, int rangeId, ChunkRange range) throws Exception {
        return jdbc.inTransactionOf(() -> applyInTransaction(lease, pass, rangeId, range));
    }

    private ChunkReconciled applyInTransaction(CampaignLease lease, int pass, int rangeId, ChunkRange range) throws Exception {
        PostgresReconcileLedger.fence(jdbc, tables, lease);
        if (jdbc.one("SELECT 1 FROM " + tables.range + " WHERE run_key = ? AND pass = ? AND range_id = ?", rs -> 1,
                lease.runKey(), pass, rangeId).isPresent()) {
            // Committed before a crash whose resume surveyed again: exactly once per range.
            return ChunkReconciled.NOTHING;
        }
        String runKey = lease.runKey();
        String staged = ROWS + " s WHERE " + predicate(range, "s");
        String sKey = keyText.text("s");
        String tKey = keyText.text("t");
        String decided = "(SELECT q.key FROM " + tables.queue + " q WHERE q.run_key = ? AND q.decision = 'accept')";
        String held = "(SELECT q.key FROM " + tables.queue + " q WHERE q.run_key = ? AND (q.decision IS NULL OR q.decision = 'keep'))";
        // Every row of the range someone else wrote after publication waits for a decision, whatever the source did.
        long queued = !withOthers.contains(rangeId) ? 0 : queue("SELECT o.k, CASE WHEN EXISTS (SELECT 1 FROM " + staged + " AND " + sKey + " = o.k) THEN 'written in"
                + " the published table after publication by someone else, and changed in the source since' ELSE 'written in the"
                + " published table after publication by someone else' END FROM " + OTHERS + " o WHERE o.r = " + rangeId
                + " AND o.k NOT IN " + decided, runKey, pass, 1);

        List<String> others = columns.stream().filter(c -> !key.contains(c)).toList();
        // Over a row someone else wrote since the survey the update does nothing: the next pass queues it.
        long upserted = !withRows.contains(rangeId) ? 0 : jdbc.update("INSERT INTO " + live + " AS t (" + list(columns, null) + ") SELECT " + list(columns, "s")
                + " FROM " + staged + " AND " + sKey + " NOT IN " + held + " ON CONFLICT (" + list(key, null) + ") DO "
                + (others.isEmpty() ? "NOTHING" : "UPDATE SET " + others.stream()
                .map(c -> PostgresIdentifiers.quote(c) + " = EXCLUDED." + PostgresIdentifiers.quote(c)).collect(Collectors.joining(", "))
                + " WHERE ROW(" + list(others, "t") + ")::text IS DISTINCT FROM ROW(" + list(others, "EXCLUDED") + ")::text"
                + " AND (" + tables.ours("t") + " OR " + tKey + " IN " + decided + ")"),
                others.isEmpty() ? new Object[] {runKey} : new Object[] {runKey, runKey, runKey, runKey});
        if (accepting && withRows.contains(rangeId)) {
            settle("SELECT " + sKey + " FROM " + staged, runKey);
        }

        long deleted = 0;
        if (withGone.contains(rangeId)) {
            // The row must still lie in this range: one the source moved to another range is that range's to write.
            String gone = GONE + " g WHERE g." + RANGE + " = " + rangeId + " AND " + join("g", "t") + " AND " + predicate(range, "t");
            deleted = jdbc.one("WITH d AS (DELETE FROM " + live + " t USING " + gone + " AND " + tKey + " NOT IN " + held
                    + " AND (" + tables.ours("t") + " OR " + tKey + " IN " + decided + ") RETURNING " + tKey + " AS k),"
                    + " settled AS (DELETE FROM " + tables.queue + " q WHERE q.run_key = ? AND q.decision = 'accept'"
                    + " AND q.key IN (SELECT k FROM d)) SELECT count(*) FROM d", rs -> rs.getLong(1),
                    runKey, runKey, runKey, runKey, runKey).orElse(0L);
        }
        if (withMissing.contains(rangeId)) {
            queued += queue("SELECT " + keyText.text("m") + ", 'in the source but missing from the published table:"
                    + " deleted there after publication by someone else' FROM " + MISSING + " m WHERE m." + RANGE + " = " + rangeId
                    + " AND NOT EXISTS (SELECT 1 FROM " + live + " t WHERE " + join("m", "t") + ") AND "
                    + keyText.text("m") + " NOT IN " + decided, runKey, pass, 1);
        }
        jdbc.update("INSERT INTO " + tables.range + " (run_key, pass, range_id, upserted, deleted, queued, keys_compared,"
                + " lease_epoch) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", runKey, pass, rangeId, upserted, deleted, queued,
                compared.contains(rangeId), lease.epoch());
        return new ChunkReconciled(upserted, deleted, queued, compared.contains(rangeId));
    }

    @Override
    public void close() throws SQLException {
        dropStaged();
        jdbc.update("RESET work_mem");
    }

    private void dropStaged() throws SQLException {
        jdbc.update("DROP TABLE IF EXISTS " + String.join(", ", STAGED));
    }

    /** Accepted keys among {@code select}'s (written by this range) are settled: they leave the queue. */
    private void settle(String select, String runKey) throws SQLException {
        jdbc.update("DELETE FROM " + tables.queue + " q WHERE q.run_key = ? AND q.decision = 'accept' AND q.key IN (" + select + ")",
                runKey);
    }

    /**
     * Queues the keys {@code select} yields (key, reason), its {@code runKeyParams} parameters all the run key; a key
     * already queued keeps its decision. Returns how many keys it queued or re-queued.
     */
    private long queue(String select, String runKey, int pass, int runKeyParams) throws SQLException {
        Object[] params = new Object[2 + runKeyParams];
        params[0] = runKey;
        params[1] = pass;
        for (int i = 2; i < params.length; i++) {
            params[i] = runKey;
        }
        return jdbc.update("INSERT INTO " + tables.queue + " AS q (run_key, pass, key, reason) SELECT ?, ?, k.* FROM (" + select
                + ") k ON CONFLICT (run_key, key) DO UPDATE SET reason = EXCLUDED.reason, pass = EXCLUDED.pass,"
                + " queued_at = now() WHERE q.decision IS NULL", params);
    }

    private String predicate(ChunkRange range, String alias) {
        if (range == null) {
            return "true";
        }
        return PostgresChunkPredicate.render(table.plan(), range, alias + "." + PostgresIdentifiers.quote(table.chunkColumn()));
    }

    private String rangeNumber(String alias) {
        return PostgresChunkPredicate.rangeNumber(table.plan(), table.chunkColumn() == null ? null
                : alias + "." + PostgresIdentifiers.quote(table.chunkColumn()));
    }

    private String join(String left, String right) {
        return key.stream().map(c -> left + "." + PostgresIdentifiers.quote(c) + " = " + right + "." + PostgresIdentifiers.quote(c))
                .collect(Collectors.joining(" AND "));
    }

    private static String list(List<String> names, String alias) {
        return names.stream().map(c -> (alias == null ? "" : alias + ".") + PostgresIdentifiers.quote(c)).collect(Collectors.joining(", "));
    }
}

package io.dpone.backfill.targets.postgres.reconcile;

import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.reconcile.ChunkReconciled;
import io.dpone.backfill.core.reconcile.KeySetDigest;
import io.dpone.backfill.core.reconcile.PassTarget;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.postgres.PostgresKeyText;
import io.dpone.backfill.source.postgres.PostgresChunkPredicate;
import io.dpone.backfill.targets.PassTable;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A reconciliation range into a PostgreSQL published table (issue 38), in one transaction: the source's changed rows
 * are copied into a temporary table, then set-based: keys where someone else wrote the target row (and it differs)
 * are queued, the rest upserted where they differ; if the range's keys still differ from the source's, the source's
 * keys are copied in and the target rows the source no longer has are deleted (or queued when someone else wrote
 * them); then the range's receipt, fenced by the lease. A queued or kept key is never written; an accepted one is.
 */
public final class PostgresPassTarget implements PassTarget {
    private static final String ROWS = "bf_reconcile_rows";
    private static final String KEYS = "bf_reconcile_keys";

    private final Connection target;
    private final PostgresJdbc jdbc;
    private final PassTable table;
    private final ReconcileTables tables;
    private final String live;
    private final List<String> columns;
    private final List<String> key;

    public PostgresPassTarget(Connection target, PassTable table) {
        this.target = target;
        this.jdbc = new PostgresJdbc(target);
        this.table = table;
        this.tables = new ReconcileTables(table.stateSchema());
        this.live = PostgresIdentifiers.qualified(table.schema(), table.table());
        this.columns = table.columns().target();
        this.key = table.key();
    }

    @Override
    public ChunkReconciled apply(CampaignLease lease, int pass, int rangeId, ChunkRange range, ChunkRows changed,
                                 KeySetDigest sourceKeys, KeyStream keys) throws Exception {
        return jdbc.inTransactionOf(() -> applyInTransaction(lease, pass, rangeId, range, changed, sourceKeys, keys));
    }

    private ChunkReconciled applyInTransaction(CampaignLease lease, int pass, int rangeId, ChunkRange range,
                                               ChunkRows changed, KeySetDigest sourceKeys, KeyStream keys) throws Exception {
        PostgresReconcileLedger.fence(jdbc, tables, lease);
        if (jdbc.one("SELECT 1 FROM " + tables.range + " WHERE run_key = ? AND pass = ? AND range_id = ?", rs -> 1,
                lease.runKey(), pass, rangeId).isPresent()) {
            // Committed before a crash whose resume reads it again: exactly once per range.
            drain(changed);
            return ChunkReconciled.NOTHING;
        }
        String runKey = lease.runKey();
        String inRange = predicate(range, "t");
        String list = list(columns, null);
        // Most ranges of a quiet source changed nothing: no staging table, no upsert, only the checks.
        boolean anyChanged = changed.next();
        if (anyChanged) {
            jdbc.update("CREATE TEMPORARY TABLE " + ROWS + " ON COMMIT DROP AS SELECT " + list + " FROM " + live + " WITH NO DATA");
            copyIn("COPY " + ROWS + " (" + list + ") FROM STDIN", changed, true);
        }

        String sKey = PostgresKeyText.of(key, "s");
        String tKey = PostgresKeyText.of(key, "t");
        String decided = "(SELECT q.key FROM " + tables.queue + " q WHERE q.run_key = ? AND q.decision = 'accept')";
        String held = "(SELECT q.key FROM " + tables.queue + " q WHERE q.run_key = ? AND (q.decision IS NULL OR q.decision = 'keep'))";
        // Every row of the range someone else wrote after publication waits for a decision, whatever the source did.
        String byOthers = "'written in the published table after publication by someone else'";
        String reason = !anyChanged ? byOthers : "CASE WHEN EXISTS (SELECT 1 FROM " + ROWS + " s WHERE " + join("s", "t")
                + ") THEN 'written in the published table after publication by someone else, and changed in the source since'"
                + " ELSE " + byOthers + " END";
        long queued = queue("SELECT " + tKey + ", " + reason + " FROM " + live + " t WHERE "
                + inRange + " AND NOT " + tables.ours("t") + " AND " + tKey + " NOT IN " + decided, runKey, pass, 3);
        long upserted = 0;
        if (anyChanged) {
            List<String> others = columns.stream().filter(c -> !key.contains(c)).toList();
            upserted = jdbc.update("INSERT INTO " + live + " AS t (" + list + ") SELECT " + list(columns, "s") + " FROM " + ROWS
                    + " s WHERE " + sKey + " NOT IN " + held + " ON CONFLICT (" + list(key, null) + ") DO "
                    + (others.isEmpty() ? "NOTHING" : "UPDATE SET " + others.stream()
                    .map(c -> PostgresIdentifiers.quote(c) + " = EXCLUDED." + PostgresIdentifiers.quote(c)).collect(Collectors.joining(", "))
                    + " WHERE ROW(" + list(others, "t") + ")::text IS DISTINCT FROM ROW(" + list(others, "EXCLUDED") + ")::text"), runKey);
            settle("SELECT " + sKey + " FROM " + ROWS + " s", runKey);
        }

        long deleted = 0;
        boolean compared = false;
        Set<Integer> differing = PostgresKeyText.digest(jdbc, live, key, "t", inRange).equals(sourceKeys) ? Set.of()
                : PostgresKeyText.buckets(jdbc, live, key, "t", inRange).differing(keys.buckets());
        if (!differing.isEmpty()) {
            compared = true;
            jdbc.update("CREATE TEMPORARY TABLE " + KEYS + " ON COMMIT DROP AS SELECT " + list(key, null) + " FROM " + live
                    + " WITH NO DATA");
            try (ChunkRows sourceKeyRows = keys.open(differing)) {
                copyIn("COPY " + KEYS + " (" + list(key, null) + ") FROM STDIN", sourceKeyRows, sourceKeyRows.next());
            }
            jdbc.update("ANALYZE " + KEYS);
            // Only the differing buckets' keys were shipped: the target side is compared in the same buckets.
            String inBuckets = inRange + " AND " + PostgresKeyText.inBuckets(key, "t", differing);
            String gone = "NOT EXISTS (SELECT 1 FROM " + KEYS + " s WHERE " + join("s", "t") + ")";
            deleted = jdbc.one("WITH d AS (DELETE FROM " + live + " t WHERE " + inBuckets + " AND " + gone + " AND " + tKey
                    + " NOT IN " + held + " AND (" + tables.ours("t") + " OR " + tKey + " IN " + decided + ") RETURNING " + tKey
                    + " AS k), settled AS (DELETE FROM " + tables.queue + " q WHERE q.run_key = ? AND q.decision = 'accept'"
                    + " AND q.key IN (SELECT k FROM d)) SELECT count(*) FROM d", rs -> rs.getLong(1),
                    runKey, runKey, runKey, runKey, runKey).orElse(0L);
            queued += queue("SELECT " + sKey + ", 'in the source but missing from the published table: deleted there after"
                    + " publication by someone else' FROM " + KEYS + " s WHERE NOT EXISTS (SELECT 1 FROM " + live + " t WHERE "
                    + join("s", "t") + ") AND " + sKey + " NOT IN " + decided, runKey, pass, 1);
        }
        jdbc.update("INSERT INTO " + tables.range + " (run_key, pass, range_id, upserted, deleted, queued, keys_compared,"
                + " lease_epoch) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", runKey, pass, rangeId, upserted, deleted, queued, compared, lease.epoch());
        return new ChunkReconciled(upserted, deleted, queued, compared);
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
        return PostgresChunkPredicate.render(table.plan(), range, (alias == null ? "" : alias + ".")
                + PostgresIdentifiers.quote(table.chunkColumn()));
    }

    private String join(String left, String right) {
        return key.stream().map(c -> left + "." + PostgresIdentifiers.quote(c) + " = " + right + "." + PostgresIdentifiers.quote(c))
                .collect(Collectors.joining(" AND "));
    }

    private static String list(List<String> names, String alias) {
        return names.stream().map(c -> (alias == null ? "" : alias + ".") + PostgresIdentifiers.quote(c)).collect(Collectors.joining(", "));
    }

    /** Copies {@code rows} in, {@code positioned}: whether the first row was already read (and is current). */
    private void copyIn(String sql, ChunkRows rows, boolean positioned) throws Exception {
        if (!positioned) {
            return;
        }
        CopyIn in = target.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
        try {
            do {
                byte[] row = rows.copyBytes();
                in.writeToCopy(row, 0, row.length);
            } while (rows.next());
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }

    private static void drain(ChunkRows rows) throws Exception {
        while (rows.next()) {
            // read to its end: the source connection serves the next read
        }
    }
}

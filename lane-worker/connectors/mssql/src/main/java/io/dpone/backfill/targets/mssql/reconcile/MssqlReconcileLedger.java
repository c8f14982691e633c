package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.reconcile.ChunkReconciled;
import io.dpone.backfill.core.reconcile.KeyDecision;
import io.dpone.backfill.core.reconcile.PassRecord;
import io.dpone.backfill.core.reconcile.QueuedKey;
import io.dpone.backfill.core.reconcile.ReconcileLedger;
import io.dpone.backfill.targets.mssql.MssqlAppLock;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The reconciliation ledger in a SQL Server target's state schema (issue 38, ADR 0056). The campaign's first pass
 * records {@code MIN_ACTIVE_ROWVERSION()} as it opens: every row version below it was committed before (the load,
 * the swap, and whatever was written between publication and that pass: the window ADR 0056 names); every pass keeps
 * that mark.
 */
public final class MssqlReconcileLedger implements ReconcileLedger {
    private static final Duration SCHEMA_LOCK_WAIT = Duration.ofSeconds(30);

    private final MssqlJdbc jdbc;
    private final MssqlReconcileTables tables;

    public MssqlReconcileLedger(Connection state, String stateSchema) {
        this.jdbc = new MssqlJdbc(state);
        this.tables = new MssqlReconcileTables(stateSchema);
    }

    @Override
    public void ensureSchema() {
        sql(() -> {
            // Two first passes of campaigns sharing a state schema must not both create a table: the second waits.
            String lock = "dpone-backfill-reconcile:" + tables.schema;
            MssqlAppLock.acquire(jdbc.connection(), lock, SCHEMA_LOCK_WAIT);
            try {
                return jdbc.inTransaction(() -> {
                    for (String ddl : tables.ddl()) {
                        jdbc.update(ddl);
                    }
                    return null;
                });
            } finally {
                MssqlAppLock.release(jdbc.connection(), lock);
            }
        });
    }

    @Override
    public boolean present() {
        return sql(() -> jdbc.one("SELECT CASE WHEN OBJECT_ID(?, N'U') IS NULL THEN 0 ELSE 1 END", rs -> rs.getInt(1) == 1,
                tables.queue).orElse(false));
    }

    /** Locks the campaign row for the transaction and refuses a lease whose epoch is no longer the campaign's. */
    static void fence(MssqlJdbc jdbc, MssqlReconcileTables tables, CampaignLease lease) throws SQLException {
        long epoch = jdbc.one("SELECT lease_epoch FROM " + tables.campaign + " WITH (UPDLOCK, HOLDLOCK) WHERE run_key = ?",
                rs -> rs.getLong(1), lease.runKey()).orElse(-1L);
        if (epoch != lease.epoch()) {
            throw new LeaseLostException("campaign lease lost for run key " + lease.runKey() + " (epoch " + lease.epoch()
                    + ", now " + epoch + "): another driver took over; this reconciliation range was not committed");
        }
    }

    @Override
    public PassRecord openPass(CampaignLease lease, String since, String anchor) {
        return sql(() -> jdbc.inTransaction(() -> {
            fence(jdbc, tables, lease);
            List<PassRecord> open = jdbc.list(select() + " WHERE p.run_key = ? AND p.finished_at IS NULL", this::record,
                    lease.runKey());
            if (!open.isEmpty()) {
                return open.get(0);
            }
            int next = jdbc.one("SELECT ISNULL(MAX(pass), 0) + 1 FROM " + tables.pass + " WHERE run_key = ?",
                    rs -> rs.getInt(1), lease.runKey()).orElse(1);
            // The first pass marks where the product's row versions end; later passes keep its mark.
            jdbc.update("INSERT INTO " + tables.pass + " (run_key, pass, since_anchor, anchor, row_mark, lease_epoch)"
                    + " SELECT ?, ?, ?, ?, ISNULL((SELECT f.row_mark FROM " + tables.pass + " f WHERE f.run_key = ? AND f.pass = 1),"
                    + " CAST(MIN_ACTIVE_ROWVERSION() AS binary(8))), ?", lease.runKey(), next, since, anchor, lease.runKey(),
                    lease.epoch());
            return jdbc.one(select() + " WHERE p.run_key = ? AND p.pass = ?", this::record, lease.runKey(), next).orElseThrow();
        }));
    }

    /** The rowversion below which a published row is the product's, as the campaign's first pass marked it. */
    static byte[] rowMark(MssqlJdbc jdbc, MssqlReconcileTables tables, String runKey) throws SQLException {
        return jdbc.one("SELECT row_mark FROM " + tables.pass + " WHERE run_key = ? AND pass = 1", rs -> rs.getBytes(1), runKey)
                .orElseThrow(() -> new IllegalStateException("no reconciliation pass was opened for run key " + runKey));
    }

    @Override
    public Set<Integer> reconciledRanges(String runKey, int pass) {
        return sql(() -> new HashSet<>(jdbc.list("SELECT range_id FROM " + tables.range + " WHERE run_key = ? AND pass = ?",
                rs -> rs.getInt(1), runKey, pass)));
    }

    @Override
    public PassRecord finishPass(CampaignLease lease, int pass) {
        return sql(() -> jdbc.inTransaction(() -> {
            fence(jdbc, tables, lease);
            jdbc.update("UPDATE p SET finished_at = SYSUTCDATETIME(), upserted = t.u, deleted = t.d, queued = t.q FROM "
                    + tables.pass + " p CROSS JOIN (SELECT ISNULL(SUM(upserted), 0) AS u, ISNULL(SUM(deleted), 0) AS d,"
                    + " ISNULL(SUM(queued), 0) AS q FROM " + tables.range + " WHERE run_key = ? AND pass = ?) t"
                    + " WHERE p.run_key = ? AND p.pass = ? AND p.finished_at IS NULL", lease.runKey(), pass, lease.runKey(), pass);
            return jdbc.one(select() + " WHERE p.run_key = ? AND p.pass = ?", this::record, lease.runKey(), pass).orElseThrow();
        }));
    }

    @Override
    public List<PassRecord> passes(String runKey) {
        return sql(() -> jdbc.list(select() + " WHERE p.run_key = ? ORDER BY p.pass", this::record, runKey));
    }

    private String select() {
        return "SELECT p.pass, p.since_anchor, p.anchor, p.started_at, p.finished_at,"
                + " ISNULL(p.upserted, ISNULL(r.u, 0)) AS upserted, ISNULL(p.deleted, ISNULL(r.d, 0)) AS deleted,"
                + " ISNULL(p.queued, ISNULL(r.q, 0)) AS queued, ISNULL(r.n, 0) AS ranges, ISNULL(r.c, 0) AS compared FROM "
                + tables.pass + " p LEFT JOIN (SELECT x.run_key, x.pass, COUNT(*) AS n, SUM(x.upserted) AS u,"
                + " SUM(x.deleted) AS d, SUM(x.queued) AS q, MAX(CAST(x.keys_compared AS int)) AS c FROM " + tables.range
                + " x GROUP BY x.run_key, x.pass) r ON r.run_key = p.run_key AND r.pass = p.pass";
    }

    private PassRecord record(ResultSet rs) throws SQLException {
        LocalDateTime started = rs.getObject("started_at", LocalDateTime.class);
        LocalDateTime finished = rs.getObject("finished_at", LocalDateTime.class);
        return new PassRecord(rs.getInt("pass"), rs.getString("since_anchor"), rs.getString("anchor"),
                started.toInstant(ZoneOffset.UTC), finished == null ? null : finished.toInstant(ZoneOffset.UTC),
                new ChunkReconciled(rs.getLong("upserted"), rs.getLong("deleted"), rs.getLong("queued"), rs.getInt("compared") == 1),
                rs.getInt("ranges"));
    }

    @Override
    public int decide(String runKey, List<String> keys, KeyDecision decision) {
        return sql(() -> {
            if (keys.isEmpty()) {
                return jdbc.update("UPDATE " + tables.queue + " SET decision = ?, decided_at = SYSUTCDATETIME()"
                        + " WHERE run_key = ? AND decision IS NULL", decision.wireName(), runKey);
            }
            return jdbc.inTransaction(() -> {
                int decided = 0;
                for (String key : new java.util.LinkedHashSet<>(keys)) {
                    decided += jdbc.update("UPDATE " + tables.queue + " SET decision = ?, decided_at = SYSUTCDATETIME()"
                            + " WHERE run_key = ? AND key_sha = ? AND decision IS NULL", decision.wireName(), runKey, PassKey.sha(key));
                }
                return decided;
            });
        });
    }

    @Override
    public List<String> keysDecided(String runKey, KeyDecision decision) {
        return sql(() -> jdbc.list("SELECT [key] FROM " + tables.queue + " WHERE run_key = ? AND decision = ? ORDER BY [key]",
                rs -> rs.getString(1), runKey, decision.wireName()));
    }

    @Override
    public long undecided(String runKey) {
        return sql(() -> jdbc.one("SELECT COUNT_BIG(*) FROM " + tables.queue + " WHERE run_key = ? AND decision IS NULL",
                rs -> rs.getLong(1), runKey).orElse(0L));
    }

    @Override
    public List<QueuedKey> queue(String runKey, int limit) {
        return sql(() -> jdbc.list("SELECT TOP (?) [key], reason, pass, decision FROM " + tables.queue + " WHERE run_key = ?"
                        + " ORDER BY CASE WHEN decision IS NULL THEN 0 ELSE 1 END, queued_at, [key]",
                rs -> new QueuedKey(rs.getString(1), rs.getString(2), rs.getInt(3), KeyDecision.fromWire(rs.getString(4))),
                limit, runKey));
    }

    interface Sql<T> {
        T run() throws Exception;
    }

    static <T> T sql(Sql<T> work) {
        try {
            return work.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("reconciliation ledger: " + e.getMessage(), e);
        }
    }
}

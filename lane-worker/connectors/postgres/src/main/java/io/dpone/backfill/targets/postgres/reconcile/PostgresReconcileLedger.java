package io.dpone.backfill.targets.postgres.reconcile;

import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.reconcile.ChunkReconciled;
import io.dpone.backfill.core.reconcile.KeyDecision;
import io.dpone.backfill.core.reconcile.PassRecord;
import io.dpone.backfill.core.reconcile.QueuedKey;
import io.dpone.backfill.core.reconcile.ReconcileLedger;
import io.dpone.backfill.postgres.PostgresJdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The reconciliation ledger in a PostgreSQL target's state schema (issue 38). */
public final class PostgresReconcileLedger implements ReconcileLedger {
    private final PostgresJdbc jdbc;
    private final ReconcileTables tables;

    public PostgresReconcileLedger(Connection state, String stateSchema) {
        this.jdbc = new PostgresJdbc(state);
        this.tables = new ReconcileTables(stateSchema);
    }

    @Override
    public void ensureSchema() {
        sql(() -> jdbc.inTransaction(() -> {
            for (String ddl : tables.ddl()) {
                jdbc.update(ddl);
            }
            return null;
        }));
    }

    @Override
    public boolean present() {
        return sql(() -> jdbc.one("SELECT pg_catalog.to_regclass(?) IS NOT NULL AS p", rs -> rs.getBoolean("p"),
                tables.queue).orElse(false));
    }

    /** Locks the campaign row and refuses a lease whose epoch is no longer the campaign's. */
    static void fence(PostgresJdbc jdbc, ReconcileTables tables, CampaignLease lease) throws SQLException {
        long epoch = jdbc.one("SELECT lease_epoch FROM " + tables.campaign + " WHERE run_key = ? FOR UPDATE",
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
            List<PassRecord> open = jdbc.list(select() + " WHERE p.run_key = ? AND p.finished_at IS NULL", this::record, lease.runKey());
            if (!open.isEmpty()) {
                return open.get(0);
            }
            int next = jdbc.one("SELECT coalesce(max(pass), 0) + 1 FROM " + tables.pass + " WHERE run_key = ?",
                    rs -> rs.getInt(1), lease.runKey()).orElse(1);
            jdbc.update("INSERT INTO " + tables.pass + " (run_key, pass, since_anchor, anchor, lease_epoch) VALUES (?, ?, ?, ?, ?)",
                    lease.runKey(), next, since, anchor, lease.epoch());
            return jdbc.one(select() + " WHERE p.run_key = ? AND p.pass = ?", this::record, lease.runKey(), next).orElseThrow();
        }));
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
            jdbc.update("UPDATE " + tables.pass + " p SET finished_at = now(), upserted = t.u, deleted = t.d, queued = t.q"
                    + " FROM (SELECT coalesce(sum(upserted), 0) AS u, coalesce(sum(deleted), 0) AS d, coalesce(sum(queued), 0) AS q"
                    + " FROM " + tables.range + " WHERE run_key = ? AND pass = ?) t WHERE p.run_key = ? AND p.pass = ?"
                    + " AND p.finished_at IS NULL", lease.runKey(), pass, lease.runKey(), pass);
            return jdbc.one(select() + " WHERE p.run_key = ? AND p.pass = ?", this::record, lease.runKey(), pass).orElseThrow();
        }));
    }

    @Override
    public List<PassRecord> passes(String runKey) {
        return sql(() -> jdbc.list(select() + " WHERE p.run_key = ? ORDER BY p.pass", this::record, runKey));
    }

    private String select() {
        return "SELECT p.pass, p.since_anchor, p.anchor, p.started_at, p.finished_at,"
                + " coalesce(p.upserted, r.u) AS upserted, coalesce(p.deleted, r.d) AS deleted, coalesce(p.queued, r.q) AS queued,"
                + " r.n AS ranges, r.compared FROM " + tables.pass + " p CROSS JOIN LATERAL (SELECT count(*) AS n,"
                + " coalesce(sum(upserted), 0) AS u, coalesce(sum(deleted), 0) AS d, coalesce(sum(queued), 0) AS q,"
                + " coalesce(bool_or(keys_compared), false) AS compared FROM " + tables.range
                + " x WHERE x.run_key = p.run_key AND x.pass = p.pass) r";
    }

    private PassRecord record(ResultSet rs) throws SQLException {
        Timestamp finished = rs.getTimestamp("finished_at");
        return new PassRecord(rs.getInt("pass"), rs.getString("since_anchor"), rs.getString("anchor"),
                rs.getTimestamp("started_at").toInstant(), finished == null ? null : finished.toInstant(),
                new ChunkReconciled(rs.getLong("upserted"), rs.getLong("deleted"), rs.getLong("queued"), rs.getBoolean("compared")),
                rs.getInt("ranges"));
    }

    @Override
    public int decide(String runKey, List<String> keys, KeyDecision decision) {
        return sql(() -> keys.isEmpty()
                ? jdbc.update("UPDATE " + tables.queue + " SET decision = ?, decided_at = now() WHERE run_key = ? AND decision IS NULL",
                decision.wireName(), runKey)
                : jdbc.update("UPDATE " + tables.queue + " SET decision = ?, decided_at = now() WHERE run_key = ? AND key = ANY(?)"
                        + " AND decision IS NULL", decision.wireName(), runKey,
                jdbc.connection().createArrayOf("text", keys.toArray())));
    }

    @Override
    public List<String> keysDecided(String runKey, KeyDecision decision) {
        return sql(() -> jdbc.strings("SELECT key FROM " + tables.queue + " WHERE run_key = ? AND decision = ? ORDER BY key",
                runKey, decision.wireName()));
    }

    @Override
    public long undecided(String runKey) {
        return sql(() -> jdbc.one("SELECT count(*) FROM " + tables.queue + " WHERE run_key = ? AND decision IS NULL",
                rs -> rs.getLong(1), runKey).orElse(0L));
    }

    @Override
    public List<QueuedKey> queue(String runKey, int limit) {
        return sql(() -> jdbc.list("SELECT key, reason, pass, decision FROM " + tables.queue + " WHERE run_key = ?"
                        + " ORDER BY decision NULLS FIRST, queued_at, key LIMIT ?",
                rs -> new QueuedKey(rs.getString("key"), rs.getString("reason"), rs.getInt("pass"),
                        KeyDecision.fromWire(rs.getString("decision"))), runKey, limit));
    }

    private interface Sql<T> {
        T run() throws SQLException;
    }

    private static <T> T sql(Sql<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw new IllegalStateException("reconciliation ledger: " + e.getMessage(), e);
        }
    }
}

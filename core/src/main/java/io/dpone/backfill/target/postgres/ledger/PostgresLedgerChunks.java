package io.dpone.backfill.target.postgres.ledger;

import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkEstimates;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.RunningChunk;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.postgres.PostgresJdbc;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.dpone.backfill.target.postgres.ledger.PostgresLedgerRows.CHUNK_COLUMNS;
import static io.dpone.backfill.target.postgres.ledger.PostgresLedgerStore.TTL;


/**
 * The chunk-table statements of {@link PostgresLedgerStore} (which documents their contract and synchronizes).
 * Every write is one statement fenced by owner and epoch, or by the state and epoch that were read.
 */
public final class PostgresLedgerChunks {
    static final int MAX_ERROR_CHARS = 2000;

    /** Claimable by the same rule in the read and in the claim; the retry policy's part is bound by the read. */
    private static final String CLAIMABLE = "(state = 'pending' OR (state = 'running' AND lease_expires < now())"
            + " OR (? AND state = 'failed' AND attempts < ?))";

    /** Chunks that will (again) need a lane: not started, failed, or abandoned by a lane whose lease expired. */
    private static final String WAITING = "state IN ('pending', 'failed') OR (state = 'running' AND lease_expires < now())";
    private static final String LIVE_RUNNING = "state = 'running' AND lease_expires >= now()";

    private final PostgresJdbc sql;
    private final String chunk;
    private final String chunkReceipt;
    private final String campaign;

    PostgresLedgerChunks(PostgresJdbc sql, String stateSchema) {
        this.sql = sql;
        this.chunk = PostgresLedgerSchema.table(stateSchema, "chunk");
        this.chunkReceipt = PostgresLedgerSchema.table(stateSchema, "chunk_receipt");
        this.campaign = PostgresLedgerSchema.table(stateSchema, "campaign");
    }

    /**
     * All chunks in one statement over three parallel arrays: one round trip whatever the plan size (16384 chunks
     * take tens of milliseconds), and no dynamic SQL. Runs inside the caller's transaction.
     */
    void insertAll(String runKey, ChunkPlan plan) throws SQLException {
        int n = plan.size();
        Integer[] ids = new Integer[n];
        String[] lowers = new String[n];
        String[] uppers = new String[n];
        for (int i = 0; i < n; i++) {
            ChunkRange range = plan.chunk(i);
            ids[i] = range.id();
            lowers[i] = plan.boundText(range.lowerInclusive());
            uppers[i] = plan.boundText(range.upperExclusive());
        }
        Connection connection = sql.connection();
        Array idArray = connection.createArrayOf("int4", ids);
        Array lowerArray = connection.createArrayOf("text", lowers);
        Array upperArray = connection.createArrayOf("text", uppers);
        try {
            sql.update("INSERT INTO " + chunk + " (run_key, chunk_id, lower_bound, upper_bound)"
                    + " SELECT ?, u.chunk_id, u.lower_bound, u.upper_bound"
                    + " FROM unnest(?::int[], ?::text[], ?::text[]) AS u (chunk_id, lower_bound, upper_bound)",
                    runKey, idArray, lowerArray, upperArray);
        } finally {
            idArray.free();
            lowerArray.free();
            upperArray.free();
        }
    }

    /**
     * The counters and, in the same statement, the estimate aggregates: a chunk running with an expired lease is
     * waiting again (its lane is gone), so only live running chunks are listed with their elapsed time.
     */
    ChunkCounts counts(String runKey, int maxAttempts) throws SQLException {
        return sql.one("SELECT count(*) AS total,"
                        + " count(*) FILTER (WHERE state = 'pending') AS pending,"
                        + " count(*) FILTER (WHERE state = 'running') AS running,"
                        + " count(*) FILTER (WHERE state = 'committed') AS committed,"
                        + " count(*) FILTER (WHERE state = 'failed') AS failed,"
                        + " count(*) FILTER (WHERE state = 'failed' AND attempts >= ?) AS failed_exhausted,"
                        + " coalesce(sum(rows_extracted) FILTER (WHERE state = 'committed'), 0) AS rows_extracted,"
                        + " coalesce(sum(rows_loaded) FILTER (WHERE state = 'committed'), 0) AS rows_loaded,"
                        + " coalesce(sum(rows_loaded) FILTER (WHERE state = 'committed'"
                        + " AND finished_at >= now() - interval '60 seconds'), 0) AS recent_rows,"
                        + " coalesce(extract(epoch FROM now() - min(started_at)), 0) AS seconds,"
                        + " count(rows_estimated) AS estimated,"
                        + " count(*) FILTER (WHERE state <> 'committed' AND rows_estimated IS NULL) AS unestimated,"
                        + " coalesce(sum(rows_estimated) FILTER (WHERE " + WAITING + "), 0) AS waiting_rows,"
                        + " array_agg(rows_estimated ORDER BY chunk_id) FILTER (WHERE " + LIVE_RUNNING + ") AS running_rows,"
                        + " array_agg(extract(epoch FROM now() - started_at)::float8 ORDER BY chunk_id)"
                        + " FILTER (WHERE " + LIVE_RUNNING + ") AS running_seconds,"
                        + " array_agg(rows_copied ORDER BY chunk_id) FILTER (WHERE " + LIVE_RUNNING + ") AS running_copied"
                        + " FROM " + chunk + " WHERE run_key = ?",
                rs -> new ChunkCounts(rs.getInt("total"), rs.getInt("pending"), rs.getInt("running"),
                        rs.getInt("committed"), rs.getInt("failed"), rs.getInt("failed_exhausted"),
                        rs.getLong("rows_extracted"), rs.getLong("rows_loaded"), rs.getLong("recent_rows"),
                        Math.max(0, rs.getDouble("seconds")), estimates(rs)),
                maxAttempts, runKey).orElseThrow();
    }

    private static ChunkEstimates estimates(ResultSet rs) throws SQLException {
        boolean complete = rs.getInt("estimated") > 0 && rs.getInt("unestimated") == 0;
        List<RunningChunk> running = new ArrayList<>();
        Array rows = rs.getArray("running_rows");
        Array seconds = rs.getArray("running_seconds");
        Array copied = rs.getArray("running_copied");
        if (rows != null && seconds != null && copied != null) {
            Object[] r = (Object[]) rows.getArray();
            Object[] t = (Object[]) seconds.getArray();
            Object[] n = (Object[]) copied.getArray();
            for (int i = 0; i < r.length; i++) {
                running.add(new RunningChunk(r[i] == null ? null : ((Number) r[i]).longValue(),
                        t[i] == null ? 0 : Math.max(0, ((Number) t[i]).doubleValue()),
                        n[i] == null ? 0 : ((Number) n[i]).longValue()));
            }
        }
        return new ChunkEstimates(complete, rs.getLong("waiting_rows"), running);
    }

    /** One statement whatever the plan size, over two parallel arrays; the caller proves the lease in the same transaction. */
    int recordEstimates(String runKey, List<Long> rowsPerChunk) throws SQLException {
        int n = rowsPerChunk.size();
        Integer[] ids = new Integer[n];
        Long[] rows = new Long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i;
            rows[i] = rowsPerChunk.get(i);
        }
        Connection connection = sql.connection();
        Array idArray = connection.createArrayOf("int4", ids);
        Array rowArray = connection.createArrayOf("int8", rows);
        try {
            return sql.update("UPDATE " + chunk + " c SET rows_estimated = u.rows FROM unnest(?::int4[], ?::int8[])"
                    + " AS u (chunk_id, rows) WHERE c.run_key = ? AND c.chunk_id = u.chunk_id", idArray, rowArray, runKey);
        } finally {
            idArray.free();
            rowArray.free();
        }
    }

    List<ChunkRecord> claimable(String runKey, int maxAttempts, boolean retryFailed, int limit) throws SQLException {
        return sql.list("SELECT " + CHUNK_COLUMNS + " FROM " + chunk + " WHERE run_key = ? AND " + CLAIMABLE
                + " ORDER BY chunk_id LIMIT ?", PostgresLedgerRows::chunk, runKey, retryFailed, maxAttempts, limit);
    }

    /**
     * A failed chunk whose state, epoch and attempts still match the read was claimable under the caller's retry
     * policy when read, so the policy is passed as "allow failed" here.
     */
    Optional<ChunkClaim> claim(String runKey, ChunkRecord seen, String owner, long ttlMillis) throws SQLException {
        return sql.one("UPDATE " + chunk + " SET state = 'running', owner = ?, epoch = epoch + 1,"
                        + " attempts = attempts + 1, lease_expires = " + TTL + ","
                        + " started_at = coalesce(started_at, now()), finished_at = NULL, last_error = NULL,"
                        + " rows_copied = 0"
                        + " WHERE run_key = ? AND chunk_id = ? AND epoch = ? AND state = ? AND attempts = ? AND "
                        + CLAIMABLE
                        // Re-checked in the claim itself: a lane that read the stop flag just before it was set
                        // must not start another chunk.
                        + " AND NOT EXISTS (SELECT 1 FROM " + campaign + " c WHERE c.run_key = ? AND c.stop_requested)"
                        + " RETURNING epoch, attempts",
                rs -> new ChunkClaim(runKey, seen.chunkId(), owner, rs.getLong("epoch"), rs.getInt("attempts")),
                owner, ttlMillis, runKey, seen.chunkId(), seen.epoch(), seen.state().dbValue(), seen.attempts(),
                true, Integer.MAX_VALUE, runKey);
    }

    boolean renew(ChunkClaim claim, long ttlMillis, long rowsCopied) throws SQLException {
        return sql.update("UPDATE " + chunk + " SET lease_expires = " + TTL + ", rows_copied = ?"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = 'running'"
                + " AND lease_expires >= now()", ttlMillis, Math.max(0, rowsCopied), claim.runKey(), claim.chunkId(), claim.owner(),
                claim.epoch()) == 1;
    }

    boolean fail(ChunkClaim claim, String error) throws SQLException {
        return sql.update("UPDATE " + chunk + " SET state = 'failed', owner = NULL, lease_expires = NULL,"
                + " last_error = ?, finished_at = now()"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = 'running'",
                truncate(error), claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1;
    }

    boolean hasReceipt(String runKey, int chunkId) throws SQLException {
        return sql.one("SELECT EXISTS (SELECT 1 FROM " + chunkReceipt + " WHERE run_key = ? AND chunk_id = ?)"
                + " AS present", rs -> rs.getBoolean("present"), runKey, chunkId).orElse(false);
    }

    boolean commitFromReceipt(ChunkClaim claim) throws SQLException {
        return sql.update("UPDATE " + chunk + " c SET state = 'committed', rows_loaded = r.rows_loaded,"
                + " rows_extracted = r.rows_loaded, finished_at = now(), lease_expires = NULL"
                + " FROM " + chunkReceipt + " r"
                + " WHERE c.run_key = ? AND c.chunk_id = ? AND c.owner = ? AND c.epoch = ?"
                + " AND r.run_key = c.run_key AND r.chunk_id = c.chunk_id",
                claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1;
    }

    /** The chunk half of a requeue; the caller proves the campaign lease in the same transaction. */
    int requeueFailed(String runKey) throws SQLException {
        return sql.update("UPDATE " + chunk + " SET state = 'pending', attempts = 0, owner = NULL,"
                + " lease_expires = NULL WHERE run_key = ? AND state = 'failed'", runKey);
    }

    List<ChunkRecord> page(String runKey, int offset, int limit) throws SQLException {
        return sql.list("SELECT " + CHUNK_COLUMNS + " FROM " + chunk + " WHERE run_key = ? ORDER BY chunk_id"
                + " OFFSET ? LIMIT ?", PostgresLedgerRows::chunk, runKey, offset, limit);
    }

    /** PostgreSQL text cannot hold NUL; a cut must not split a surrogate pair. */
    static String truncate(String error) {
        if (error == null) {
            return null;
        }
        String clean = error.replace('\u0000', ' ');
        if (clean.length() <= MAX_ERROR_CHARS) {
            return clean;
        }
        int end = Character.isHighSurrogate(clean.charAt(MAX_ERROR_CHARS - 1)) ? MAX_ERROR_CHARS - 1 : MAX_ERROR_CHARS;
        return clean.substring(0, end);
    }
}

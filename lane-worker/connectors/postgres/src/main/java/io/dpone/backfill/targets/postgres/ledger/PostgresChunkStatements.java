package io.dpone.backfill.targets.postgres.ledger;

import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkErrorText;
import io.dpone.backfill.core.ledger.ChunkEstimates;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.RunningChunk;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.targets.ProgressCounterRow;
import io.dpone.backfill.targets.ledger.ChunkStatements;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.dpone.backfill.targets.postgres.ledger.PostgresLedgerRows.CHUNK_COLUMNS;

/**
 * The chunk rows' statements on PostgreSQL: the plan, progress counters (ADR 0027), claims and their lane locks (ADR
 * 0021), and the chunk's move to committed that a lane's chunk transaction runs with its receipt.
 */
public final class PostgresChunkStatements extends PostgresLedgerTables implements ChunkStatements {
    /** Names of the lane locks this connection's session holds. */
    private final Set<String> laneLocks = new HashSet<>();

    public PostgresChunkStatements(Connection connection, String stateSchema) {
        super(connection, stateSchema);
    }

    /** A session advisory lock keyed like the driver lock, taken once per owner (a second try would stack it). */
    @Override
    public boolean holdLaneLock(String runKey, String owner) throws SQLException {
        String lock = laneLockName(runKey, owner);
        if (laneLocks.contains(lock)) {
            return true;
        }
        boolean granted = tryLaneLock(runKey, owner);
        if (granted) {
            laneLocks.add(lock);
        }
        return granted;
    }

    /** Session level, never waits: true when granted (an owner is one process, so only a stale session of it holds it). */
    private boolean tryLaneLock(String runKey, String owner) throws SQLException {
        return tryAdvisoryLock(laneLockName(runKey, owner));
    }


    /**
     * All chunks in one statement over three parallel arrays: one round trip whatever the plan size (16384 chunks
     * take tens of milliseconds), and no dynamic SQL. Runs inside the caller's transaction.
     */
    @Override
    public void insertPlan(String runKey, ChunkPlan plan) throws SQLException {
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
            // The plan row: from here on this run's progress is read from its counters (ADR 0027).
            sql.update("INSERT INTO " + runProgress + " (run_key, owner, chunks) VALUES (?, '', ?)", runKey, n);
        } finally {
            idArray.free();
            lowerArray.free();
            upperArray.free();
        }
    }

    /**
     * The counters and the estimate aggregates, from the run's progress counters ({@link #countedSql}) or, for a run
     * planned before them, one aggregate over its chunks: a chunk running with an expired lease is waiting again (its
     * lane is gone), so only live running chunks are listed with their elapsed time.
     */
    @Override
    public ChunkCounts counts(String runKey, int maxAttempts) throws SQLException {
        Optional<ChunkCounts> counted = sql.one(countedSql(),
                rs -> rs.getObject("total") == null ? Optional.<ChunkCounts>empty()
                        : Optional.of(ProgressCounterRow.read(rs).counts(running(rs))),
                runKey, runKey, runKey, runKey, maxAttempts).orElseThrow();
        return counted.isPresent() ? counted.get() : aggregated(runKey, maxAttempts);
    }

    /**
     * Progress read without walking the chunks (ADR 0027), in one statement: the committed chunks' counters (one row
     * per lane that committed, and the plan row), the running and failed chunks (an index range of the claim index),
     * the chunks finished in the last minute (an index range of {@code chunk_finished}) and the first start (the head
     * of {@code chunk_started}). Pending is what remains of the plan. Total is null for a run without a plan row.
     * Parameters: run key (counters, open chunks, recent, first start), max attempts.
     */
    String countedSql() {
        return "WITH p AS (SELECT sum(chunks) FILTER (WHERE owner = '') AS total,"
                + " coalesce(sum(chunks) FILTER (WHERE owner <> ''), 0) AS committed,"
                + " coalesce(sum(rows_extracted), 0) AS rows_extracted, coalesce(sum(rows_loaded), 0) AS rows_loaded,"
                + " coalesce(sum(estimated_chunks) FILTER (WHERE owner = ''), 0) AS planned_estimated,"
                + " coalesce(sum(estimated_rows) FILTER (WHERE owner = ''), 0) AS planned_estimated_rows,"
                + " coalesce(sum(estimated_chunks) FILTER (WHERE owner <> ''), 0) AS committed_estimated,"
                + " coalesce(sum(estimated_rows) FILTER (WHERE owner <> ''), 0) AS committed_estimated_rows"
                + " FROM " + runProgress + " WHERE run_key = ?),"
                + " o AS (SELECT chunk_id, state, attempts, refused, rows_estimated, rows_copied, started_at, lease_expires"
                + " FROM " + chunk + " WHERE run_key = ? AND state IN ('running', 'failed'))"
                + " SELECT p.*,"
                + " (SELECT coalesce(sum(rows_loaded), 0) FROM " + chunk + " WHERE run_key = ?"
                + " AND finished_at >= now() - interval '60 seconds' AND state = 'committed') AS recent_rows,"
                + " (SELECT coalesce(extract(epoch FROM now() - min(started_at)), 0) FROM " + chunk
                + " WHERE run_key = ?) AS seconds,"
                + " o.running, o.failed, o.failed_exhausted, o.live_estimated_rows,"
                + " o.running_rows, o.running_seconds, o.running_copied"
                + " FROM p, (SELECT count(*) FILTER (WHERE state = 'running') AS running,"
                + " count(*) FILTER (WHERE state = 'failed') AS failed,"
                + " count(*) FILTER (WHERE state = 'failed' AND (attempts >= ? OR refused)) AS failed_exhausted,"
                + " coalesce(sum(rows_estimated) FILTER (WHERE " + LIVE_RUNNING + "), 0) AS live_estimated_rows,"
                + " array_agg(rows_estimated ORDER BY chunk_id) FILTER (WHERE " + LIVE_RUNNING + ") AS running_rows,"
                + " array_agg(extract(epoch FROM now() - started_at)::float8 ORDER BY chunk_id)"
                + " FILTER (WHERE " + LIVE_RUNNING + ") AS running_seconds,"
                + " array_agg(rows_copied ORDER BY chunk_id) FILTER (WHERE " + LIVE_RUNNING + ") AS running_copied"
                + " FROM o) AS o";
    }

    /**
     * A run planned before the progress counters (no plan row): one aggregate over its chunks, as before ADR 0027.
     * Parameters: max attempts, run key.
     */
    private ChunkCounts aggregated(String runKey, int maxAttempts) throws SQLException {
        return sql.one("SELECT count(*) AS total,"
                        + " count(*) FILTER (WHERE state = 'pending') AS pending,"
                        + " count(*) FILTER (WHERE state = 'running') AS running,"
                        + " count(*) FILTER (WHERE state = 'committed') AS committed,"
                        + " count(*) FILTER (WHERE state = 'failed') AS failed,"
                        + " count(*) FILTER (WHERE state = 'failed' AND (attempts >= ? OR refused)) AS failed_exhausted,"
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
        return new ChunkEstimates(complete, rs.getLong("waiting_rows"), running(rs));
    }

    /** The live running chunks' estimates, elapsed seconds and rows copied, from three parallel arrays in chunk order. */
    private static List<RunningChunk> running(ResultSet rs) throws SQLException {
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
        return running;
    }

    /** One statement whatever the plan size, over two parallel arrays; the caller proves the lease in the same transaction. */
    @Override
    public void recordEstimates(String runKey, List<Long> rowsPerChunk) throws SQLException {
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
            sql.update("UPDATE " + chunk + " c SET rows_estimated = u.rows FROM unnest(?::int4[], ?::int8[])"
                    + " AS u (chunk_id, rows) WHERE c.run_key = ? AND c.chunk_id = u.chunk_id", idArray, rowArray, runKey);
            // The plan's totals, read once from the chunks: the chunks not committed yet as estimated now, and the
            // committed ones as their lanes counted them, so that the two always add up (a replayed preparation).
            sql.update("UPDATE " + runProgress + " SET (estimated_chunks, estimated_rows) = (SELECT o.chunks + c.chunks,"
                    + " o.estimated + c.estimated FROM (SELECT count(rows_estimated) AS chunks,"
                    + " coalesce(sum(rows_estimated), 0) AS estimated FROM " + chunk + " WHERE run_key = ? AND state <> 'committed') o,"
                    + " (SELECT coalesce(sum(estimated_chunks), 0) AS chunks, coalesce(sum(estimated_rows), 0) AS estimated"
                    + " FROM " + runProgress + " WHERE run_key = ? AND owner <> '') c) WHERE run_key = ? AND owner = ''",
                    runKey, runKey, runKey);
        } finally {
            idArray.free();
            rowArray.free();
        }
    }

    /**
     * The first {@code limit} chunks that {@link #CLAIMABLE} admits, by chunk id. One branch per state, each an ordered
     * read of the {@code (run_key, state, chunk_id)} index with its own limit: a read never walks the committed
     * chunks, so it costs the same at the first claim of a 16,384-chunk plan as at its last (one ordered scan
     * filtered by the OR read every committed chunk below the first claimable one).
     */
    @Override
    public List<ChunkRecord> claimable(String runKey, int maxAttempts, boolean retryFailed, int limit) throws SQLException {
        return sql.list(claimableSql(), PostgresLedgerRows.ROWS::chunk, claimableParameters(runKey, maxAttempts, retryFailed, limit));
    }

    String claimableSql() {
        return claimableBranch("pending", "")
                + " UNION ALL " + claimableBranch("running", " AND (lease_expires < now() OR " + OWNER_SESSION_GONE + ")")
                + " UNION ALL " + claimableBranch("failed", " AND ? AND NOT refused AND attempts < ?")
                + " ORDER BY chunk_id LIMIT ?";
    }

    /** Concatenated, never formatted: the table's name holds the state schema, whose {@code %} is text (issue 39). */
    private String claimableBranch(String state, String condition) {
        return "(SELECT " + CHUNK_COLUMNS + " FROM " + chunk + " WHERE run_key = ? AND state = '" + state + "'" + condition
                + " ORDER BY chunk_id LIMIT ?)";
    }

    Object[] claimableParameters(String runKey, int maxAttempts, boolean retryFailed, int limit) {
        return new Object[]{runKey, limit, runKey, laneLockPrefix(runKey), limit, runKey, retryFailed, maxAttempts, limit, limit};
    }

    /**
     * A failed chunk whose state, epoch and attempts still match the read was claimable under the caller's retry
     * policy when read, so the policy is passed as "allow failed" here.
     */
    @Override
    public Optional<ChunkClaim> claim(String runKey, ChunkRecord seen, String owner, long ttlMillis) throws SQLException {
        return sql.one("UPDATE " + chunk + " SET state = 'running', owner = ?, epoch = epoch + 1,"
                        + " attempts = attempts + 1, lease_expires = " + TTL + ", owner_locked = " + HOLDS_LOCK + ","
                        + " started_at = coalesce(started_at, now()), finished_at = NULL, last_error = NULL,"
                        + " rows_copied = 0"
                        + " WHERE run_key = ? AND chunk_id = ? AND epoch = ? AND state = ? AND attempts = ? AND "
                        + CLAIMABLE
                        // Re-checked in the claim itself: a lane that read the stop flag just before it was set
                        // must not start another chunk.
                        + " AND NOT EXISTS (SELECT 1 FROM " + campaign + " c WHERE c.run_key = ? AND c.stop_requested)"
                        + " RETURNING epoch, attempts",
                rs -> new ChunkClaim(runKey, seen.chunkId(), owner, rs.getLong("epoch"), rs.getInt("attempts")),
                owner, ttlMillis, laneLockName(runKey, owner), runKey, seen.chunkId(), seen.epoch(), seen.state().dbValue(),
                seen.attempts(), laneLockPrefix(runKey), true, Integer.MAX_VALUE, runKey);
    }

    @Override
    public boolean renew(ChunkClaim claim, long ttlMillis, long rowsCopied) throws SQLException {
        return sql.update("UPDATE " + chunk + " SET lease_expires = " + TTL + ", rows_copied = ?"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = 'running'"
                + " AND lease_expires >= now()", ttlMillis, Math.max(0, rowsCopied), claim.runKey(), claim.chunkId(), claim.owner(),
                claim.epoch()) == 1;
    }

    @Override
    public boolean fail(ChunkClaim claim, String error, boolean refused) throws SQLException {
        return sql.update("UPDATE " + chunk + " SET state = 'failed', owner = NULL, lease_expires = NULL,"
                + " last_error = ?, finished_at = now(), refused = ?"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = 'running'",
                ChunkErrorText.bounded(error), refused, claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1;
    }

    @Override
    public Optional<ChunkRecord> firstRefused(String runKey) throws SQLException {
        return sql.one("SELECT " + CHUNK_COLUMNS + " FROM " + chunk + " WHERE run_key = ? AND state = 'failed' AND refused"
                + " ORDER BY chunk_id LIMIT 1", PostgresLedgerRows.ROWS::chunk, runKey);
    }

    @Override
    public boolean abandon(ChunkClaim claim, String reason) throws SQLException {
        return sql.update("UPDATE " + chunk + " SET state = 'pending', owner = NULL, lease_expires = NULL,"
                + " attempts = greatest(attempts - 1, 0), rows_copied = 0, last_error = ?"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = 'running'",
                ChunkErrorText.bounded(reason), claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1;
    }

    @Override
    public boolean commitFromReceipt(ChunkClaim claim) throws SQLException {
        return sql.update(countedCommit("UPDATE " + chunk + " c SET state = 'committed', rows_loaded = r.rows_loaded,"
                + " rows_extracted = r.rows_loaded, finished_at = now(), lease_expires = NULL"
                + " FROM " + chunkReceipt + " r"
                // Running only: a chunk is counted once, by the statement that moves it to committed.
                + " WHERE c.run_key = ? AND c.chunk_id = ? AND c.owner = ? AND c.epoch = ? AND c.state = 'running'"
                + " AND r.run_key = c.run_key AND r.chunk_id = c.chunk_id"
                + " RETURNING c.run_key, c.owner, c.rows_extracted, c.rows_loaded, c.rows_estimated"),
                claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1;
    }

    /**
     * A chunk's move to committed ({@code committing}: an UPDATE of at most one chunk, RETURNING its run key, owner,
     * rows and estimate) and its lane's progress counters in one statement (ADR 0027): the counters can never
     * disagree with the chunks, whichever transaction the statement runs in. Its count is the chunks committed.
     */
    private String countedCommit(String committing) {
        return "WITH done AS (" + committing + ")"
                + " INSERT INTO " + runProgress + " AS p (run_key, owner, chunks, rows_extracted, rows_loaded,"
                + " estimated_chunks, estimated_rows)"
                + " SELECT run_key, owner, 1, rows_extracted, rows_loaded, (rows_estimated IS NOT NULL)::int,"
                + " coalesce(rows_estimated, 0) FROM done"
                + " ON CONFLICT (run_key, owner) DO UPDATE SET chunks = p.chunks + 1,"
                + " rows_extracted = p.rows_extracted + excluded.rows_extracted,"
                + " rows_loaded = p.rows_loaded + excluded.rows_loaded,"
                + " estimated_chunks = p.estimated_chunks + excluded.estimated_chunks,"
                + " estimated_rows = p.estimated_rows + excluded.estimated_rows";
    }

    /** The chunk half of a requeue; the caller proves the campaign lease in the same transaction. */
    @Override
    public int requeueFailed(String runKey) throws SQLException {
        return sql.update("UPDATE " + chunk + " SET state = 'pending', attempts = 0, owner = NULL,"
                + " lease_expires = NULL, refused = false WHERE run_key = ? AND state = 'failed'", runKey);
    }

    @Override
    public List<ChunkRecord> page(String runKey, int offset, int limit) throws SQLException {
        return sql.list("SELECT " + CHUNK_COLUMNS + " FROM " + chunk + " WHERE run_key = ? ORDER BY chunk_id"
                + " OFFSET ? LIMIT ?", PostgresLedgerRows.ROWS::chunk, runKey, offset, limit);
    }

    /** clock_timestamp(), not now(): now() is the transaction's start, before the copy, and would hide its duration. */
    public boolean markChunkCommitted(ChunkClaim claim, long rowsExtracted, long rowsLoaded) throws SQLException {
        return sql.update(countedCommit("UPDATE " + chunk + " SET state = 'committed', rows_extracted = ?, rows_loaded = ?,"
                + " finished_at = clock_timestamp(), lease_expires = NULL, last_error = NULL"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = 'running'"
                + " RETURNING run_key, owner, rows_extracted, rows_loaded, rows_estimated"),
                rowsExtracted, rowsLoaded, claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1;
    }
}

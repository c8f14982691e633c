package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkErrorText;
import io.dpone.backfill.core.ledger.ChunkEstimates;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.ChunkState;
import io.dpone.backfill.core.ledger.ProgressCounters;
import io.dpone.backfill.core.ledger.RunningChunk;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.targets.ProgressCounterRow;
import io.dpone.backfill.targets.ledger.ChunkStatements;
import io.dpone.backfill.targets.mssql.MssqlAppLock;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The chunk rows' statements on SQL Server, executed on the ledger's state connection: the plan (one bulk load,
 * {@link MssqlPlannedChunks}), progress counters (ADR 0027), claims fenced by owner and epoch, and the lane locks
 * (ADR 0021), each an exclusive {@code sp_getapplock} owned by the session. The text of every statement is
 * {@link MssqlLedgerText}'.
 */
final class MssqlChunkStatements implements ChunkStatements {
    private final MssqlJdbc sql;
    private final MssqlLedgerText statements;
    /** Names of the lane locks this connection's session holds. */
    private final Set<String> laneLocks = new HashSet<>();
    /** Lane locks on Babelfish too: only for the contract tests, which stay below its limit (see {@link #holdLaneLock}). */
    private final boolean laneLocksOnBabelfish;
    /** Null until the first {@link #holdLaneLock}: whether this server takes lane locks. */
    private Boolean laneLocksAvailable;

    MssqlChunkStatements(MssqlJdbc sql, MssqlLedgerText statements, boolean laneLocksOnBabelfish) {
        this.sql = sql;
        this.statements = statements;
        this.laneLocksOnBabelfish = laneLocksOnBabelfish;
    }

    /** The chunks in one bulk load, then the plan row: from here on the run's progress is read from its counters. */
    @Override
    public void insertPlan(String runKey, ChunkPlan plan) throws SQLException {
        MssqlPlannedChunks.insert(sql.connection(), statements.chunkTable(), runKey, plan);
        sql.update(statements.insertPlanProgress(), runKey, plan.size());
    }

    /** {@value MssqlLedgerText#ROWS_PER_STATEMENT} chunks a statement, full groups in one batch. */
    @Override
    public void recordEstimates(String runKey, List<Long> rowsPerChunk) throws SQLException {
        int n = rowsPerChunk.size();
        int per = MssqlLedgerText.ROWS_PER_STATEMENT;
        List<Object[]> full = new ArrayList<>();
        for (int from = 0; from < n; from += per) {
            int rows = Math.min(per, n - from);
            Object[] params = new Object[rows * 2 + 1];
            for (int i = 0; i < rows; i++) {
                params[i * 2] = from + i;
                params[i * 2 + 1] = rowsPerChunk.get(from + i);
            }
            params[rows * 2] = runKey;
            if (rows == per) {
                full.add(params);
            } else {
                sql.update(statements.recordEstimates(rows), params);
            }
        }
        sql.batch(statements.recordEstimates(per), full);
        sql.update(statements.recordPlannedEstimates(), runKey, runKey, runKey);
    }

    /**
     * One statement, from the run's progress counters (ADR 0027), or for a run planned before them one aggregate over
     * its chunks. Rows extracted and loaded count committed chunks only; {@code committedLastMinuteRows} counts
     * chunks committed in the last 60 s of the database clock; seconds since the first start is 0 before any claim.
     */
    @Override
    public ChunkCounts counts(String runKey, int maxAttempts) throws SQLException {
        List<RunningChunk> running = new ArrayList<>();
        List<ProgressCounters> counters = new ArrayList<>(1);
        sql.list(statements.countedCounts(), rs -> {
            if (counters.isEmpty()) {
                rs.getLong("total");
                // No plan row: a run planned before the counters; the aggregate below answers.
                counters.add(rs.wasNull() ? null : ProgressCounterRow.read(rs));
            }
            rs.getInt("running_chunk");
            if (!rs.wasNull()) {
                running.add(runningChunk(rs));
            }
            return null;
        }, runKey, maxAttempts, runKey, runKey, runKey, runKey);
        ProgressCounters counted = counters.get(0);
        return counted != null ? counted.counts(running) : aggregatedCounts(runKey, maxAttempts);
    }

    /** A run planned before the progress counters: the aggregate over its chunks. */
    private ChunkCounts aggregatedCounts(String runKey, int maxAttempts) throws SQLException {
        List<RunningChunk> running = new ArrayList<>();
        ChunkCounts[] totals = new ChunkCounts[1];
        sql.list(statements.aggregatedCounts(), rs -> {
            if (totals[0] == null) {
                totals[0] = totals(rs);
            }
            rs.getInt("running_chunk");
            if (!rs.wasNull()) {
                running.add(runningChunk(rs));
            }
            return null;
        }, maxAttempts, runKey, runKey);
        ChunkCounts t = totals[0];
        return new ChunkCounts(t.total(), t.pending(), t.running(), t.committed(), t.failed(),
                t.failedExhausted(), t.rowsExtracted(), t.rowsLoaded(), t.committedLastMinuteRows(),
                t.secondsSinceFirstStart(), new ChunkEstimates(t.estimates().complete(),
                t.estimates().waitingRows(), running));
    }

    private static ChunkCounts totals(ResultSet rs) throws SQLException {
        boolean complete = rs.getInt("estimated") > 0 && rs.getInt("unestimated") == 0;
        return new ChunkCounts(rs.getInt("total"), rs.getInt("pending"), rs.getInt("running"),
                rs.getInt("committed"), rs.getInt("failed"), rs.getInt("failed_exhausted"),
                rs.getLong("rows_extracted"), rs.getLong("rows_loaded"), rs.getLong("recent_rows"),
                Math.max(0, rs.getDouble("seconds")),
                new ChunkEstimates(complete, rs.getLong("waiting_rows"), List.of()));
    }

    private static RunningChunk runningChunk(ResultSet rs) throws SQLException {
        long rows = rs.getLong("running_rows");
        Long estimated = rs.wasNull() ? null : rows;
        return new RunningChunk(estimated, Math.max(0, rs.getDouble("running_seconds")),
                Math.max(0, rs.getLong("running_copied")));
    }

    /**
     * An exclusive {@code sp_getapplock} owned by this connection's session, like the driver lock, taken once per
     * owner; never for a name the claim's SQL could not match (longer than the 255 characters of a resource).
     */
    @Override
    public boolean holdLaneLock(String runKey, String owner) throws SQLException {
        String lock = statements.laneLockName(runKey, owner);
        if (laneLocks.contains(lock)) {
            return true;
        }
        if (lock.length() > MssqlAppLock.MAX_NAME_LENGTH || !laneLocksAvailable()) {
            return false;
        }
        boolean granted = MssqlAppLock.tryAcquire(sql.connection(), lock);
        if (granted) {
            laneLocks.add(lock);
        }
        return granted;
    }

    /**
     * False on Babelfish (unless told otherwise): every conflicting application-lock call there (APPLOCK_TEST of a
     * held lock, sp_getapplock refused) leaks an error-stack entry of the session, and the fifth aborts the whole
     * server (PANIC "ERRORDATA_STACK_SIZE exceeded"; babelfish-gaps.md). A lane polling for chunks tests the other
     * lanes' locks all the time, so there its chunks keep lease-only recovery.
     */
    private boolean laneLocksAvailable() throws SQLException {
        if (laneLocksAvailable == null) {
            laneLocksAvailable = laneLocksOnBabelfish || !sql.one("SELECT @@VERSION AS v", rs -> rs.getString("v"),
                    new Object[0]).orElse("").contains("Babelfish");
        }
        return laneLocksAvailable;
    }

    /**
     * In chunk order; {@code leaseExpired} is judged by the database clock. Claimable by the lease, plus running
     * chunks claimed under a lane lock that is free now (ADR 0021), asked one owner per statement.
     */
    @Override
    public List<ChunkRecord> claimable(String runKey, int maxAttempts, boolean retryFailed, int limit)
            throws SQLException {
        List<ChunkRecord> found = new ArrayList<>(sql.list(statements.claimable(), MssqlLedgerRows.ROWS::chunk, limit,
                limit, runKey, limit, runKey, limit, runKey, retryFailed, maxAttempts));
        if (found.size() < limit) {
            Map<String, Boolean> gone = new HashMap<>();
            for (ChunkRecord c : sql.list(statements.lockedRunning(), MssqlLedgerRows.ROWS::chunk, limit, runKey)) {
                Boolean free = gone.get(c.owner());
                if (free == null) {
                    free = laneSessionGone(runKey, c.owner());
                    gone.put(c.owner(), free);
                }
                if (free && found.size() < limit) {
                    found.add(c);
                }
            }
            found.sort(Comparator.comparingInt(ChunkRecord::chunkId));
        }
        return found;
    }

    /** No other session holds {@code owner}'s lane lock; never true for a lane lock this store holds itself. */
    private boolean laneSessionGone(String runKey, String owner) throws SQLException {
        String lock = statements.laneLockName(runKey, owner);
        if (laneLocks.contains(lock) || lock.length() > MssqlAppLock.MAX_NAME_LENGTH) {
            return false;
        }
        return sql.one(statements.laneLockFree(), rs -> rs.getInt("free") == 1, lock).orElse(false);
    }

    /**
     * One conditional update, no row-lock hints: it matches only while the chunk still has the epoch, state and
     * attempts that were read and is still claimable, so of two lanes claiming the same read exactly one wins.
     * The retry policy was applied when {@code seen} was read (attempts cannot change without the epoch changing),
     * so a failed chunk that still matches the read is passed as claimable here. A running chunk with a live lease
     * is claimed only when its lane's lock is free now (ADR 0021). DATEADD takes an int: the store refuses a longer
     * lease before it gets here.
     */
    @Override
    public Optional<ChunkClaim> claim(String runKey, ChunkRecord seen, String owner, long ttlMillis)
            throws SQLException {
        int ttl = Math.toIntExact(ttlMillis);
        String lock = statements.laneLockName(runKey, owner);
        MssqlJdbc.Row<ChunkClaim> claimed =
                rs -> new ChunkClaim(runKey, seen.chunkId(), owner, rs.getLong("epoch"), rs.getInt("attempts"));
        if (seen.state() == ChunkState.RUNNING && !seen.leaseExpired()) {
            if (seen.owner() == null || !laneSessionGone(runKey, seen.owner())) {
                return Optional.empty();
            }
            return sql.one(statements.claimOrphan(), claimed, owner, ttl, lock, runKey, seen.chunkId(),
                    seen.epoch(), seen.state().dbValue(), seen.attempts(), seen.owner(), runKey);
        }
        return sql.one(statements.claim(), claimed, owner, ttl, lock, runKey, seen.chunkId(), seen.epoch(),
                seen.state().dbValue(), seen.attempts(), true, Integer.MAX_VALUE, runKey);
    }

    @Override
    public boolean renew(ChunkClaim claim, long ttlMillis, long rowsCopied) throws SQLException {
        return sql.update(statements.renewChunk(), Math.toIntExact(ttlMillis), Math.max(0, rowsCopied),
                claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1;
    }

    @Override
    public boolean fail(ChunkClaim claim, String error, boolean refused) throws SQLException {
        return sql.update(statements.failChunk(), ChunkErrorText.bounded(error), refused, claim.runKey(), claim.chunkId(),
                claim.owner(), claim.epoch()) == 1;
    }

    @Override
    public Optional<ChunkRecord> firstRefused(String runKey) throws SQLException {
        return sql.one(statements.firstRefused(), MssqlLedgerRows.ROWS::chunk, runKey);
    }

    @Override
    public boolean abandon(ChunkClaim claim, String reason) throws SQLException {
        return sql.update(statements.abandonChunk(), ChunkErrorText.bounded(reason), claim.runKey(), claim.chunkId(),
                claim.owner(), claim.epoch()) == 1;
    }

    /** One transaction with the lane's progress counters (ADR 0027). */
    @Override
    public boolean commitFromReceipt(ChunkClaim claim) throws SQLException {
        return sql.inTransaction(() -> {
            if (sql.update(statements.commitFromReceipt(), claim.runKey(), claim.chunkId(), claim.owner(),
                    claim.epoch()) != 1) {
                return false;
            }
            MssqlCommittedCount.add(sql, statements, claim.runKey(), claim.chunkId());
            return true;
        });
    }

    @Override
    public int requeueFailed(String runKey) throws SQLException {
        return sql.update(statements.requeueFailed(), runKey);
    }

    @Override
    public List<ChunkRecord> page(String runKey, int offset, int limit) throws SQLException {
        return sql.list(statements.chunkPage(), MssqlLedgerRows.ROWS::chunk, runKey, offset, limit);
    }
}

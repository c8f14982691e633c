package io.dpone.backfill.target.mssql.ledger;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkErrorText;
import io.dpone.backfill.core.ledger.ChunkEstimates;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.ChunkState;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.LedgerConflictException;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.ProgressCounters;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.ledger.RunningChunk;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.CampaignIdentity;
import io.dpone.backfill.target.DriverLockedLease;
import io.dpone.backfill.target.LedgerVersion;
import io.dpone.backfill.target.ProgressCounterRow;
import io.dpone.backfill.target.mssql.MssqlAppLock;
import io.dpone.backfill.target.mssql.MssqlFailures;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The ledger on SQL Server, in {@code spec.state.schema} of the target database, over one long-lived state
 * connection; the same contract and the same meaning as the PostgreSQL ledger. The connection stays in autocommit
 * between calls, with {@code SET LOCK_TIMEOUT} bounding every lock wait and {@code XACT_ABORT} on; a method that
 * needs several statements runs them in one short transaction and restores autocommit. Every ownership-dependent
 * write is one conditional statement (owner, epoch and a live lease on the database clock); zero rows means the
 * race was lost and the method returns false or empty. Methods are synchronized because a lease-renewal thread
 * shares the store. All statements are in {@link MssqlLedgerStatements}.
 * <p>
 * Database errors surface as {@link io.dpone.backfill.core.engine.DatabaseFailureException} (transient or
 * permanent, with a reason, see {@link MssqlFailures}) with the {@link SQLException} as the cause.
 */
public final class MssqlLedgerStore implements LedgerStore {
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(10);
    private static final int LOCK_TIMEOUT_ERROR = 1222;
    private static final int DUPLICATE_KEY = 2627;
    private static final int DUPLICATE_INDEX_KEY = 2601;

    private final String stateSchema;
    private final Duration lockTimeout;
    private final MssqlLedgerSql sql;
    private final MssqlLedgerStatements statements;
    private final MssqlCampaignLeases campaignLeases;
    /** The campaign claim: driver lock, then lease (ADR 0016). */
    private final DriverLockedLease leases;
    /** Names of the lane locks this store's session holds. */
    private final Set<String> laneLocks = new HashSet<>();
    /** Lane locks on Babelfish too: only for the contract tests, which stay below its limit (see {@link #holdLaneLock}). */
    private final boolean laneLocksOnBabelfish;
    /** Null until the first {@link #holdLaneLock}: whether this server takes lane locks. */
    private Boolean laneLocksAvailable;

    /**
     * @param stateConnection the lane's or driver's state connection to the target database; put in autocommit
     * @param stateSchema     {@code spec.state.schema}
     */
    public MssqlLedgerStore(Connection stateConnection, String stateSchema) {
        this(stateConnection, stateSchema, DEFAULT_LOCK_TIMEOUT);
    }

    /** @param lockTimeout the longest any statement (or the schema's application lock) waits for a lock */
    public MssqlLedgerStore(Connection stateConnection, String stateSchema, Duration lockTimeout) {
        this(stateConnection, stateSchema, lockTimeout, false);
    }

    /**
     * @param laneLocksOnBabelfish take lane locks on Babelfish as well; for tests that ask for at most a few
     *                             conflicting lock calls per session
     */
    public MssqlLedgerStore(Connection stateConnection, String stateSchema, Duration lockTimeout, boolean laneLocksOnBabelfish) {
        this.laneLocksOnBabelfish = laneLocksOnBabelfish;
        this.stateSchema = Objects.requireNonNull(stateSchema, "stateSchema");
        this.lockTimeout = positive(lockTimeout, "lock timeout");
        this.sql = new MssqlLedgerSql(Objects.requireNonNull(stateConnection, "stateConnection"));
        this.statements = new MssqlLedgerStatements(stateSchema);
        this.campaignLeases = new MssqlCampaignLeases(sql, statements);
        this.leases = new DriverLockedLease(campaignLeases, stateSchema);
        call("open", () -> {
            stateConnection.setAutoCommit(true);
            try (Statement s = stateConnection.createStatement()) {
                s.execute(MssqlLedgerStatements.sessionSettings(lockTimeout.toMillis()));
            }
            return null;
        });
    }

    /** Applies the schema script, then refuses a ledger whose version is not the one this build writes. */
    @Override
    public synchronized void ensureSchema() {
        call("ensureSchema", () -> {
            MssqlLedgerSchema.apply(sql.connection(), stateSchema, lockTimeout);
            Integer version = sql.one(statements.schemaVersion(), rs -> (Integer) rs.getObject("v")).orElse(null);
            LedgerVersion.require(stateSchema, version, MssqlLedgerSchema.VERSION);
            return null;
        });
    }

    /** Looks the campaign table up with OBJECT_ID first, so a ledger that was never created stays uncreated. */
    @Override
    public synchronized Optional<CampaignRecord> peek(String runKey) {
        return call("peek", () -> {
            boolean present = sql.one(MssqlLedgerStatements.tableExists(), rs -> rs.getInt("present") == 1,
                    statements.campaignObjectName()).orElse(false);
            return present ? sql.one(statements.campaignByRunKey(), MssqlLedgerRows.ROWS::campaign, runKey)
                    : Optional.<CampaignRecord>empty();
        });
    }

    @Override
    public synchronized Optional<CampaignRecord> findByBackfillId(String backfillId) {
        return call("findByBackfillId", () -> sql.one(statements.campaignByBackfillId(), MssqlLedgerRows.ROWS::campaign,
                backfillId));
    }

    @Override
    public synchronized Optional<CampaignRecord> findByRunKey(String runKey) {
        return call("findByRunKey", () -> sql.one(statements.campaignByRunKey(), MssqlLedgerRows.ROWS::campaign, runKey));
    }

    /**
     * One transaction: the campaign (phase Planned) and every chunk of the plan (pending; bounds in the plan's
     * notation, null = open), the chunks in one bulk load ({@link MssqlPlannedChunks}). A
     * backfill id that exists with the same run key returns the stored campaign unchanged; with another run key it
     * throws {@link LedgerConflictException}. When a concurrent creator commits the same backfill id first, the
     * duplicate key error is caught and the winner's row decides by the same rule.
     */
    @Override
    public synchronized CampaignRecord createCampaign(CampaignBlueprint blueprint, String normalisedSpecJson) {
        return call("createCampaign", () -> {
            try {
                return sql.inTransaction(() -> createOrMatch(blueprint, normalisedSpecJson));
            } catch (SQLException e) {
                if (e.getErrorCode() != DUPLICATE_KEY && e.getErrorCode() != DUPLICATE_INDEX_KEY) {
                    throw e;
                }
                return sql.inTransaction(() -> createOrMatch(blueprint, normalisedSpecJson));
            }
        });
    }

    private CampaignRecord createOrMatch(CampaignBlueprint blueprint, String specJson) throws SQLException {
        String backfillId = blueprint.definition().spec().getBackfillId();
        CampaignIdentity identity = blueprint.identity();
        Optional<CampaignRecord> existing = sql.one(statements.campaignByBackfillId(), MssqlLedgerRows.ROWS::campaign,
                backfillId);
        if (existing.isPresent()) {
            return LedgerConflictException.sameCampaignOrConflict(existing.get(), backfillId, identity);
        }
        sql.update(statements.insertCampaign(), identity.runKey(), backfillId, identity.planDigest(),
                identity.configDigest(), specJson, blueprint.plan().size(), CampaignPhase.Planned.name());
        MssqlPlannedChunks.insert(sql.connection(), statements.chunkTable(), identity.runKey(), blueprint.plan());
        sql.update(statements.insertPlanProgress(), identity.runKey(), blueprint.plan().size());
        return sql.one(statements.campaignByRunKey(), MssqlLedgerRows.ROWS::campaign, identity.runKey()).orElseThrow();
    }

    /**
     * Takes the lease when it is free, expired by the database clock, or already this owner's. A takeover (from
     * another owner or from nobody) increments the epoch, which fences every write of the previous holder; the
     * same owner renews and keeps its epoch. Empty when another owner holds a live lease.
     */
    @Override
    public synchronized Optional<CampaignLease> acquireLease(String runKey, String owner, Duration ttl) {
        int ttlMillis = ttlMillis(ttl);
        return call("acquireLease", () -> campaignLeases.acquireLease(runKey, owner, ttlMillis));
    }

    /**
     * An exclusive {@code sp_getapplock} owned by this connection's session, like the driver lock, taken once per
     * store and owner; never for a name the claim's SQL could not match (longer than the 255 characters of a resource).
     */
    @Override
    public synchronized boolean holdLaneLock(String runKey, String owner) {
        String lock = statements.laneLockName(runKey, owner);
        if (laneLocks.contains(lock)) {
            return true;
        }
        if (lock.length() > MssqlAppLock.MAX_NAME_LENGTH || !laneLocksAvailable()) {
            return false;
        }
        boolean granted = call("holdLaneLock", () -> MssqlAppLock.tryAcquire(sql.connection(), lock));
        if (granted) {
            laneLocks.add(lock);
        }
        return granted;
    }

    /**
     * The driver lock is an exclusive {@code sp_getapplock} owned by this connection's session (ADR 0016); the claim
     * itself is {@link DriverLockedLease}'s.
     */
    @Override
    public synchronized CampaignClaim claimCampaign(String runKey, String owner, Duration ttl) {
        int ttlMillis = ttlMillis(ttl);
        return call("claimCampaign", () -> leases.claim(runKey, owner, ttlMillis));
    }

    /** Extends a live lease; one claimed with the driver lock only while this session still holds the lock. */
    @Override
    public synchronized boolean renewLease(CampaignLease lease, Duration ttl) {
        int ttlMillis = ttlMillis(ttl);
        return call("renewLease", () -> leases.renew(lease, ttlMillis));
    }

    /** Frees the lease (owner and expiry cleared) and keeps the epoch, so the next holder's epoch is higher. */
    @Override
    public synchronized void releaseLease(CampaignLease lease) {
        call("releaseLease", () -> {
            leases.release(lease);
            return null;
        });
    }

    /** Stored as the phase's enum name; a null {@code detailJson} keeps the current detail. */
    @Override
    public synchronized boolean transition(CampaignLease lease, CampaignPhase from, CampaignPhase to,
                                           String detailJson) {
        return call("transition", () -> fenced(statements.transition(), lease, to.name(), detailJson, from.name()));
    }

    /** True when the anchor is now (or already was) this value; false for another stored value or a lost lease. */
    @Override
    public synchronized boolean recordAnchor(CampaignLease lease, String anchorXmin) {
        Objects.requireNonNull(anchorXmin, "anchorXmin");
        return call("recordAnchor", () -> fenced(statements.recordAnchor(), lease, anchorXmin, anchorXmin));
    }

    @Override
    public synchronized boolean recordShapes(CampaignLease lease, String sourceShapeDigest, String targetShapeDigest,
                                             String liveBaselineJson) {
        return call("recordShapes", () -> fenced(statements.recordShapes(), lease, sourceShapeDigest,
                targetShapeDigest, liveBaselineJson));
    }

    @Override
    public synchronized boolean recordRowEncoding(CampaignLease lease, String rowEncoding) {
        Objects.requireNonNull(rowEncoding, "rowEncoding");
        return call("recordRowEncoding", () -> fenced(statements.recordRowEncoding(), lease, rowEncoding));
    }

    /**
     * One transaction: a fenced no-op update of the campaign row proves (and, by its row lock, holds) the lease
     * while every chunk's estimate is written, {@value MssqlLedgerStatements#ROWS_PER_STATEMENT} chunks a statement,
     * full groups in one batch.
     */
    @Override
    public synchronized boolean recordChunkEstimates(CampaignLease lease, List<Long> rowsPerChunk) {
        return call("recordChunkEstimates", () -> sql.inTransaction(() -> {
            if (!fenced(statements.proveLease(), lease)) {
                return false;
            }
            int n = rowsPerChunk.size();
            int per = MssqlLedgerStatements.ROWS_PER_STATEMENT;
            List<Object[]> full = new ArrayList<>();
            for (int from = 0; from < n; from += per) {
                int rows = Math.min(per, n - from);
                Object[] params = new Object[rows * 2 + 1];
                for (int i = 0; i < rows; i++) {
                    params[i * 2] = from + i;
                    params[i * 2 + 1] = rowsPerChunk.get(from + i);
                }
                params[rows * 2] = lease.runKey();
                if (rows == per) {
                    full.add(params);
                } else {
                    sql.update(statements.recordEstimates(rows), params);
                }
            }
            sql.batch(statements.recordEstimates(per), full);
            sql.update(statements.recordPlannedEstimates(), lease.runKey(), lease.runKey(), lease.runKey());
            return true;
        }));
    }

    @Override
    public synchronized boolean setStopRequested(CampaignLease lease, boolean stop) {
        return call("setStopRequested", () -> fenced(statements.setStopRequested(), lease, stop));
    }

    /**
     * One statement, from the run's progress counters (ADR 0027), or for a run planned before them one aggregate over
     * its chunks. Rows extracted and loaded count committed chunks only; {@code committedLastMinuteRows} counts
     * chunks committed in the last 60 s of the database clock; seconds since the first start is 0 before any claim.
     */
    @Override
    public synchronized ChunkCounts counts(String runKey, int maxAttempts) {
        return call("counts", () -> {
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
        });
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
     * In chunk order; {@code leaseExpired} is judged by the database clock. Claimable by the lease, plus running
     * chunks claimed under a lane lock that is free now (ADR 0021), asked one owner per statement.
     */
    @Override
    public synchronized List<ChunkRecord> claimable(String runKey, int maxAttempts, boolean retryFailed, int limit) {
        return call("claimable", () -> {
            List<ChunkRecord> found = new ArrayList<>(sql.list(statements.claimable(), MssqlLedgerRows.ROWS::chunk, limit,
                    limit, runKey, limit, runKey, limit, runKey, retryFailed, maxAttempts));
            if (found.size() < limit) {
                java.util.Map<String, Boolean> gone = new java.util.HashMap<>();
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
                found.sort(java.util.Comparator.comparingInt(ChunkRecord::chunkId));
            }
            return found;
        });
    }

    /**
     * False on Babelfish (unless told otherwise): every conflicting application-lock call there (APPLOCK_TEST of a
     * held lock, sp_getapplock refused) leaks an error-stack entry of the session, and the fifth aborts the whole
     * server (PANIC "ERRORDATA_STACK_SIZE exceeded"; babelfish-gaps.md). A lane polling for chunks tests the other
     * lanes' locks all the time, so there its chunks keep lease-only recovery.
     */
    private boolean laneLocksAvailable() {
        if (laneLocksAvailable == null) {
            laneLocksAvailable = laneLocksOnBabelfish || !call("server", () -> sql.one("SELECT @@VERSION AS v",
                    rs -> rs.getString("v"), new Object[0]).orElse("").contains("Babelfish"));
        }
        return laneLocksAvailable;
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
     * is claimed only when its lane's lock is free now (ADR 0021).
     */
    @Override
    public synchronized Optional<ChunkClaim> claim(String runKey, ChunkRecord seen, String owner, Duration ttl) {
        int ttlMillis = ttlMillis(ttl);
        String lock = statements.laneLockName(runKey, owner);
        MssqlLedgerSql.Row<ChunkClaim> claimed =
                rs -> new ChunkClaim(runKey, seen.chunkId(), owner, rs.getLong("epoch"), rs.getInt("attempts"));
        return call("claim", () -> {
            if (seen.state() == ChunkState.RUNNING && !seen.leaseExpired()) {
                if (seen.owner() == null || !laneSessionGone(runKey, seen.owner())) {
                    return Optional.empty();
                }
                return sql.one(statements.claimOrphan(), claimed, owner, ttlMillis, lock, runKey, seen.chunkId(),
                        seen.epoch(), seen.state().dbValue(), seen.attempts(), seen.owner(), runKey);
            }
            return sql.one(statements.claim(), claimed, owner, ttlMillis, lock, runKey, seen.chunkId(), seen.epoch(),
                    seen.state().dbValue(), seen.attempts(), true, Integer.MAX_VALUE, runKey);
        });
    }

    /** Only a live claim is renewable: once expired, another lane may already have the chunk. */
    @Override
    public synchronized boolean renewChunk(ChunkClaim claim, Duration ttl, long rowsCopied) {
        int ttlMillis = ttlMillis(ttl);
        return call("renewChunk", () -> sql.update(statements.renewChunk(), ttlMillis, Math.max(0, rowsCopied),
                claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1);
    }

    /** Fenced by owner, epoch and state running; the error is kept (first 2000 characters) for the status. */
    @Override
    public synchronized boolean failChunk(ChunkClaim claim, String error) {
        return call("failChunk", () -> sql.update(statements.failChunk(), ChunkErrorText.bounded(error), claim.runKey(),
                claim.chunkId(), claim.owner(), claim.epoch()) == 1);
    }

    @Override
    public synchronized boolean abandonChunk(ChunkClaim claim, String reason) {
        return call("abandonChunk", () -> sql.update(statements.abandonChunk(), ChunkErrorText.bounded(reason), claim.runKey(),
                claim.chunkId(), claim.owner(), claim.epoch()) == 1);
    }

    @Override
    public synchronized boolean hasChunkReceipt(String runKey, int chunkId) {
        return call("hasChunkReceipt", () -> {
            try {
                return sql.one(statements.hasChunkReceipt(), rs -> rs.getInt("present") == 1, runKey, chunkId).orElse(false);
            } catch (SQLException e) {
                if (receiptInFlight(e)) {
                    return false;
                }
                throw e;
            }
        });
    }

    /**
     * The receipt probe timed out on a lock (1222): another transaction holds the chunk's receipt uncommitted (a
     * zombie lane past its lease), where READPAST was not honoured. No committed receipt exists, so the lane goes on
     * and its own receipt insert waits for that transaction, bounded; the probe must not end the lane.
     */
    static boolean receiptInFlight(SQLException e) {
        return e.getErrorCode() == LOCK_TIMEOUT_ERROR;
    }

    /**
     * Fenced by owner and epoch; the receipt's row count becomes both rows loaded and rows extracted. One
     * transaction with the lane's progress counters (ADR 0027).
     */
    @Override
    public synchronized boolean commitFromReceipt(ChunkClaim claim) {
        return call("commitFromReceipt", () -> sql.inTransaction(() -> {
            if (sql.update(statements.commitFromReceipt(), claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) != 1) {
                return false;
            }
            MssqlCommittedCount.add(sql, statements, claim.runKey(), claim.chunkId());
            return true;
        }));
    }

    /**
     * One transaction: a fenced no-op update of the campaign row proves (and, by its row lock, holds) the lease
     * while failed chunks go back to pending with zero attempts. Returns 0 when the lease is not held; the
     * caller's next fenced write then reports the lost lease.
     */
    @Override
    public synchronized int requeueFailed(CampaignLease lease) {
        return call("requeueFailed", () -> sql.inTransaction(() -> {
            if (!fenced(statements.proveLease(), lease)) {
                return 0;
            }
            return sql.update(statements.requeueFailed(), lease.runKey());
        }));
    }

    @Override
    public synchronized List<ChunkRecord> chunks(String runKey, int offset, int limit) {
        return call("chunks", () -> sql.list(statements.chunkPage(), MssqlLedgerRows.ROWS::chunk, runKey, offset, limit));
    }

    @Override
    public synchronized Optional<PublicationReceipt> publicationReceipt(String runKey) {
        return call("publicationReceipt", () -> sql.one(statements.publicationReceipt(), MssqlLedgerRows.ROWS::publication,
                runKey));
    }

    @Override
    public synchronized Optional<HandoffReceipt> handoffReceipt(String runKey) {
        return call("handoffReceipt", () -> sql.one(statements.handoffReceipt(), MssqlLedgerRows.ROWS::handoff, runKey));
    }

    /**
     * One transaction: a fenced update of the campaign row proves the lease (and holds the row, so two holders
     * cannot interleave here), then the receipt is inserted unless one exists. An existing receipt with the same
     * anchor is a replay (true); another anchor is refused (false). Whether a publication receipt must exist first
     * is the engine's decision (direct mode has none).
     */
    @Override
    public synchronized boolean recordHandoff(CampaignLease lease, HandoffReceipt receipt) {
        if (!lease.runKey().equals(receipt.runKey())) {
            throw new IllegalArgumentException("handoff receipt for run key " + receipt.runKey()
                    + " offered under the lease of run key " + lease.runKey());
        }
        return call("recordHandoff", () -> sql.inTransaction(() -> {
            if (!fenced(statements.touchUnderLease(), lease)) {
                return false;
            }
            sql.update(statements.insertHandoffReceipt(), receipt.runKey(), receipt.receiptId(), receipt.anchorXmin(),
                    lease.epoch(), MssqlLedgerSql.time(receipt.committedAt()), receipt.runKey());
            return sql.one(statements.handoffAnchor(), rs -> rs.getString("anchor_xmin"), receipt.runKey())
                    .map(receipt.anchorXmin()::equals).orElse(false);
        }));
    }

    @Override
    public synchronized Optional<RollbackReceipt> rollbackReceipt(String runKey) {
        return call("rollbackReceipt", () -> sql.one(statements.rollbackReceipt(), MssqlLedgerRows.ROWS::rollback, runKey));
    }

    /** A fenced campaign update: {@code values} are its SET and condition parameters in order, then the lease. */
    private boolean fenced(String statement, CampaignLease lease, Object... values) throws SQLException {
        Object[] params = new Object[values.length + 3];
        System.arraycopy(values, 0, params, 0, values.length);
        params[values.length] = lease.runKey();
        params[values.length + 1] = lease.owner();
        params[values.length + 2] = lease.epoch();
        return sql.update(statement, params) == 1;
    }

    @Override
    public synchronized java.util.Map<Integer, String> chunkDigests(String runKey) {
        return call("chunkDigests", () -> {
            java.util.Map<Integer, String> digests = new java.util.HashMap<>();
            sql.list(statements.chunkDigests(), rs -> {
                digests.put(rs.getInt("chunk_id"), rs.getString("content_digest"));
                return null;
            }, runKey);
            return digests;
        });
    }

    @Override
    public synchronized void recordVerification(String runKey, String summaryJson) {
        call("recordVerification", () -> sql.update(statements.recordVerification(), summaryJson, runKey));
    }

    @Override
    public synchronized Optional<String> verification(String runKey) {
        return call("verification", () -> sql.one(statements.verification(), rs -> Optional.ofNullable(rs.getString("verification")),
                runKey).flatMap(v -> v));
    }

    private <T> T call(String operation, MssqlLedgerSql.Work<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw MssqlFailures.of("ledger " + operation + " in schema " + stateSchema + " failed (SQL Server error "
                    + e.getErrorCode() + ", SQL state " + e.getSQLState() + "): " + e.getMessage(), e);
        }
    }

    /** DATEADD takes an int: a lease longer than about 24 days is refused rather than wrapped. */
    private static int ttlMillis(Duration ttl) {
        return Math.toIntExact(positive(ttl, "lease ttl").toMillis());
    }

    private static Duration positive(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive: " + d);
        }
        return d;
    }
}

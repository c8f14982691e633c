package io.dpone.backfill.target.postgres.ledger;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.LedgerConflictException;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.CampaignIdentity;
import io.dpone.backfill.postgres.PostgresFailures;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.target.DriverLockedLease;
import io.dpone.backfill.target.LedgerVersion;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;



/**
 * The ledger on PostgreSQL, in {@code spec.state.schema} of the target database, over one long-lived state
 * connection. The connection stays in autocommit between calls; a method that needs several statements runs them
 * in one short transaction and restores autocommit. Every ownership-dependent write is a single conditional
 * statement (owner, epoch and a live lease on the database clock); zero rows means the race was lost and the
 * method returns false or empty. Methods are synchronized because a lease-renewal thread shares the store.
 * <p>
 * Database errors surface as {@link io.dpone.backfill.core.engine.DatabaseFailureException} (transient or permanent,
 * with a reason) with the {@link SQLException} (and its SQL state) as the cause.
 */
public final class PostgresLedgerStore implements LedgerStore {
    private final String stateSchema;
    private final PostgresJdbc sql;
    private final PostgresLedgerStatements statements;
    /** Run keys whose driver lock this store's session holds. */
    private final DriverLockedLease leases;
    /** Names of the lane locks this store's session holds. */
    private final Set<String> laneLocks = new HashSet<>();

    /**
     * @param stateConnection the lane's or driver's state connection to the target database; put in autocommit
     * @param stateSchema     {@code spec.state.schema}
     */
    public PostgresLedgerStore(Connection stateConnection, String stateSchema) {
        this.stateSchema = Objects.requireNonNull(stateSchema, "stateSchema");
        this.sql = new PostgresJdbc(Objects.requireNonNull(stateConnection, "stateConnection"));
        this.statements = new PostgresLedgerStatements(stateConnection, stateSchema);
        this.leases = new DriverLockedLease(statements, stateSchema);
        call("open", () -> {
            stateConnection.setAutoCommit(true);
            return null;
        });
    }

    /** Applies the schema script, then refuses a ledger whose version is not the one this build writes. */
    @Override
    public synchronized void ensureSchema() {
        call("ensureSchema", () -> {
            PostgresLedgerSchema.apply(sql.connection(), stateSchema);
            Integer version = statements.schemaVersion();
            LedgerVersion.require(stateSchema, version, PostgresLedgerSchema.VERSION);
            return null;
        });
    }

    /** Looks the campaign table up with to_regclass first, so a ledger that was never created stays uncreated. */
    @Override
    public synchronized Optional<CampaignRecord> peek(String runKey) {
        return call("peek", () -> {
            return statements.ledgerPresent() ? statements.campaign("run_key", runKey) : Optional.<CampaignRecord>empty();
        });
    }

    @Override
    public synchronized Optional<CampaignRecord> findByBackfillId(String backfillId) {
        return call("findByBackfillId", () -> statements.campaign("backfill_id", backfillId));
    }

    @Override
    public synchronized Optional<CampaignRecord> findByRunKey(String runKey) {
        return call("findByRunKey", () -> statements.campaign("run_key", runKey));
    }

    /**
     * One transaction: the campaign (phase Planned) and every chunk of the plan (pending; bounds in the plan's
     * notation, null = open), inserted with one array-driven statement. A backfill id that exists with the same run
     * key returns the stored campaign unchanged; with another run key it throws {@link LedgerConflictException}.
     * When a concurrent creator commits the same backfill id first, the unique violation is caught and the
     * winner's row decides by the same rule.
     */
    @Override
    public synchronized CampaignRecord createCampaign(CampaignBlueprint blueprint, String normalisedSpecJson) {
        return call("createCampaign", () -> {
            try {
                return sql.inTransaction(() -> createOrMatch(blueprint, normalisedSpecJson));
            } catch (SQLException e) {
                if (!PostgresJdbc.UNIQUE_VIOLATION.equals(e.getSQLState())) {
                    throw e;
                }
                return sql.inTransaction(() -> createOrMatch(blueprint, normalisedSpecJson));
            }
        });
    }

    private CampaignRecord createOrMatch(CampaignBlueprint blueprint, String specJson) throws SQLException {
        String backfillId = blueprint.definition().spec().getBackfillId();
        CampaignIdentity identity = blueprint.identity();
        Optional<CampaignRecord> existing = statements.campaign("backfill_id", backfillId);
        if (existing.isPresent()) {
            return LedgerConflictException.sameCampaignOrConflict(existing.get(), backfillId, identity);
        }
        statements.insertCampaign(blueprint, specJson, CampaignPhase.Planned.name());
        statements.insertAll(identity.runKey(), blueprint.plan());
        return statements.campaign("run_key", identity.runKey()).orElseThrow();
    }

    /**
     * Takes the lease when it is free, expired by the database clock, or already this owner's. A takeover (from
     * another owner or from nobody) increments the epoch, which fences every write of the previous holder; the
     * same owner renews and keeps its epoch. Empty when another owner holds a live lease.
     */
    @Override
    public synchronized Optional<CampaignLease> acquireLease(String runKey, String owner, Duration ttl) {
        long ttlMillis = ttlMillis(ttl);
        return call("acquireLease", () -> statements.acquireLease(runKey, owner, ttlMillis));
    }

    /**
     * The driver lock is a session advisory lock on this connection, keyed by a 64-bit hash of the state schema and
     * run key (ADR 0016); the claim itself is {@link DriverLockedLease}'s.
     */
    @Override
    public synchronized CampaignClaim claimCampaign(String runKey, String owner, Duration ttl) {
        long ttlMillis = ttlMillis(ttl);
        return call("claimCampaign", () -> leases.claim(runKey, owner, ttlMillis));
    }

    /** A session advisory lock keyed like the driver lock, taken once per store and owner (a second try would stack it). */
    @Override
    public synchronized boolean holdLaneLock(String runKey, String owner) {
        String lock = statements.laneLockName(runKey, owner);
        if (laneLocks.contains(lock)) {
            return true;
        }
        boolean granted = call("holdLaneLock", () -> statements.tryLaneLock(runKey, owner));
        if (granted) {
            laneLocks.add(lock);
        }
        return granted;
    }

    /** Extends a live lease; one claimed with the driver lock only while this session still holds the lock. */
    @Override
    public synchronized boolean renewLease(CampaignLease lease, Duration ttl) {
        long ttlMillis = ttlMillis(ttl);
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
        return call("transition", () -> statements.fenced("phase = ?, detail = coalesce(?, detail), updated_at = now()",
                "phase = ? AND ", lease, to.name(), detailJson, from.name()));
    }

    /** True when the anchor is now (or already was) this value; false for another stored value or a lost lease. */
    @Override
    public synchronized boolean recordAnchor(CampaignLease lease, String anchorXmin) {
        Objects.requireNonNull(anchorXmin, "anchorXmin");
        return call("recordAnchor", () -> statements.fenced("anchor_xmin = coalesce(anchor_xmin, ?)",
                "(anchor_xmin IS NULL OR anchor_xmin = ?) AND ", lease, anchorXmin, anchorXmin));
    }

    @Override
    public synchronized boolean recordShapes(CampaignLease lease, String sourceShapeDigest, String targetShapeDigest,
                                             String liveBaselineJson) {
        return call("recordShapes", () -> statements.fenced("source_shape_digest = ?, target_shape_digest = ?, live_baseline = ?", "",
                lease, sourceShapeDigest, targetShapeDigest, liveBaselineJson));
    }

    @Override
    public synchronized boolean recordRowEncoding(CampaignLease lease, String rowEncoding) {
        Objects.requireNonNull(rowEncoding, "rowEncoding");
        return call("recordRowEncoding", () -> statements.fenced("row_encoding = ?", "", lease, rowEncoding));
    }

    /**
     * One transaction: a fenced no-op update of the campaign row proves (and holds) the lease while every chunk's
     * estimate is written by one array-driven statement.
     */
    @Override
    public synchronized boolean recordChunkEstimates(CampaignLease lease, List<Long> rowsPerChunk) {
        return call("recordChunkEstimates", () -> sql.inTransaction(() -> {
            if (!statements.fenced("lease_epoch = lease_epoch", "", lease)) {
                return false;
            }
            statements.recordEstimates(lease.runKey(), rowsPerChunk);
            return true;
        }));
    }

    @Override
    public synchronized boolean setStopRequested(CampaignLease lease, boolean stop) {
        return call("setStopRequested", () -> statements.fenced("stop_requested = ?", "", lease, stop));
    }

    /**
     * One query. Rows extracted and loaded count committed chunks only; {@code committedLastMinuteRows} counts
     * chunks committed in the last 60 s of the database clock; seconds since the first start is 0 before any claim.
     */
    @Override
    public synchronized ChunkCounts counts(String runKey, int maxAttempts) {
        return call("counts", () -> statements.counts(runKey, maxAttempts));
    }

    /** In chunk order; {@code leaseExpired} is judged by the database clock. */
    @Override
    public synchronized List<ChunkRecord> claimable(String runKey, int maxAttempts, boolean retryFailed, int limit) {
        return call("claimable", () -> statements.claimable(runKey, maxAttempts, retryFailed, limit));
    }

    /**
     * One conditional update, no row-lock hints: it matches only while the chunk still has the epoch, state and
     * attempts that were read and is still claimable, so of two lanes claiming the same read exactly one wins.
     * The retry policy was applied when {@code seen} was read; attempts cannot change without the epoch changing.
     */
    @Override
    public synchronized Optional<ChunkClaim> claim(String runKey, ChunkRecord seen, String owner, Duration ttl) {
        long ttlMillis = ttlMillis(ttl);
        return call("claim", () -> statements.claim(runKey, seen, owner, ttlMillis));
    }

    /** Only a live claim is renewable: once expired, another lane may already have the chunk. */
    @Override
    public synchronized boolean renewChunk(ChunkClaim claim, Duration ttl, long rowsCopied) {
        long ttlMillis = ttlMillis(ttl);
        return call("renewChunk", () -> statements.renew(claim, ttlMillis, rowsCopied));
    }

    /** Fenced by owner, epoch and state running; the error is kept (first 2000 characters) for the status. */
    @Override
    public synchronized boolean failChunk(ChunkClaim claim, String error) {
        return call("failChunk", () -> statements.fail(claim, error));
    }

    @Override
    public synchronized boolean abandonChunk(ChunkClaim claim, String reason) {
        return call("abandonChunk", () -> statements.abandon(claim, reason));
    }

    @Override
    public synchronized boolean hasChunkReceipt(String runKey, int chunkId) {
        return call("hasChunkReceipt", () -> statements.hasReceipt(runKey, chunkId));
    }

    /** Fenced by owner and epoch; the receipt's row count becomes both rows loaded and rows extracted. */
    @Override
    public synchronized boolean commitFromReceipt(ChunkClaim claim) {
        return call("commitFromReceipt", () -> statements.commitFromReceipt(claim));
    }

    /**
     * One transaction: a fenced no-op update of the campaign row proves (and, by its row lock, holds) the lease
     * while failed chunks go back to pending with zero attempts. Returns 0 when the lease is not held; the
     * caller's next fenced write then reports the lost lease.
     */
    @Override
    public synchronized int requeueFailed(CampaignLease lease) {
        return call("requeueFailed", () -> sql.inTransaction(() -> {
            if (!statements.fenced("lease_epoch = lease_epoch", "", lease)) {
                return 0;
            }
            return statements.requeueFailed(lease.runKey());
        }));
    }

    @Override
    public synchronized List<ChunkRecord> chunks(String runKey, int offset, int limit) {
        return call("chunks", () -> statements.page(runKey, offset, limit));
    }

    @Override
    public synchronized Optional<PublicationReceipt> publicationReceipt(String runKey) {
        return call("publicationReceipt", () -> statements.publicationReceipt(runKey));
    }

    @Override
    public synchronized Optional<HandoffReceipt> handoffReceipt(String runKey) {
        return call("handoffReceipt", () -> statements.handoffReceipt(runKey));
    }

    /**
     * One transaction: a fenced update of the campaign row proves the lease, then the receipt is inserted unless
     * one exists. An existing receipt with the same anchor is a replay (true); another anchor is refused (false).
     * Whether a publication receipt must exist first is the engine's decision (direct mode has none).
     */
    @Override
    public synchronized boolean recordHandoff(CampaignLease lease, HandoffReceipt receipt) {
        if (!lease.runKey().equals(receipt.runKey())) {
            throw new IllegalArgumentException("handoff receipt for run key " + receipt.runKey()
                    + " offered under the lease of run key " + lease.runKey());
        }
        return call("recordHandoff", () -> sql.inTransaction(() -> {
            if (!statements.fenced("updated_at = now()", "", lease)) {
                return false;
            }
            return statements.insertHandoff(lease, receipt).map(receipt.anchorXmin()::equals).orElse(false);
        }));
    }

    @Override
    public synchronized Optional<RollbackReceipt> rollbackReceipt(String runKey) {
        return call("rollbackReceipt", () -> statements.rollbackReceipt(runKey));
    }

    @Override
    public synchronized java.util.Map<Integer, String> chunkDigests(String runKey) {
        return call("chunkDigests", () -> statements.chunkDigests(runKey));
    }

    @Override
    public synchronized void recordVerification(String runKey, String summaryJson) {
        call("recordVerification", () -> {
            statements.recordVerification(runKey, summaryJson);
            return null;
        });
    }

    @Override
    public synchronized Optional<String> verification(String runKey) {
        return call("verification", () -> statements.verification(runKey));
    }

    private <T> T call(String operation, PostgresJdbc.Work<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw PostgresFailures.of("ledger " + operation + " in schema " + stateSchema + " failed (SQL state "
                    + e.getSQLState() + "): " + e.getMessage(), e);
        }
    }

    private static long ttlMillis(Duration ttl) {
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("lease ttl must be positive: " + ttl);
        }
        return ttl.toMillis();
    }
}

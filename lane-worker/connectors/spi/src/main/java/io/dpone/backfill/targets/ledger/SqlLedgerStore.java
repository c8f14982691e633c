package io.dpone.backfill.targets.ledger;

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
import io.dpone.backfill.core.ledger.PublicationApproval;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.CampaignIdentity;
import io.dpone.backfill.targets.DriverLockedLease;
import io.dpone.backfill.targets.LedgerVersion;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The one {@link LedgerStore} of every SQL target, over its statements split by aggregate (campaign, chunks,
 * receipts) and its state connection. This class holds what is the same on every database: which statements a
 * call runs and in which transaction, the campaign claim through the driver lock ({@link DriverLockedLease}), the
 * creation race, and database errors turned into classified failures naming the call. Methods are synchronized:
 * a lease-renewal thread shares the store and its one connection.
 */
public final class SqlLedgerStore implements LedgerStore {
    private final String stateSchema;
    private final LedgerConnection db;
    private final CampaignStatements campaigns;
    private final ChunkStatements chunks;
    private final ReceiptStatements receipts;
    private final DriverLockedLease leases;

    public SqlLedgerStore(String stateSchema, LedgerConnection db, CampaignStatements campaigns, ChunkStatements chunks,
                          ReceiptStatements receipts) {
        this.stateSchema = Objects.requireNonNull(stateSchema, "stateSchema");
        this.db = Objects.requireNonNull(db, "db");
        this.campaigns = Objects.requireNonNull(campaigns, "campaigns");
        this.chunks = Objects.requireNonNull(chunks, "chunks");
        this.receipts = Objects.requireNonNull(receipts, "receipts");
        this.leases = new DriverLockedLease(campaigns, stateSchema);
    }

    /** Applies the schema script, then refuses a ledger whose version is not the one this build writes. */
    @Override
    public synchronized void ensureSchema() {
        call("ensureSchema", () -> {
            LedgerVersion.require(stateSchema, db.applySchema(), db.schemaVersion());
            return null;
        });
    }

    /** Looks the campaign table up first, so a ledger that was never created stays uncreated. */
    @Override
    public synchronized Optional<CampaignRecord> peek(String runKey) {
        return call("peek", () -> campaigns.ledgerPresent() ? campaigns.byRunKey(runKey) : Optional.empty());
    }

    @Override
    public synchronized Optional<CampaignRecord> findByBackfillId(String backfillId) {
        return call("findByBackfillId", () -> campaigns.byBackfillId(backfillId));
    }

    @Override
    public synchronized Optional<CampaignRecord> findByRunKey(String runKey) {
        return call("findByRunKey", () -> campaigns.byRunKey(runKey));
    }

    /**
     * One transaction: the campaign (phase Planned) and every chunk of the plan (pending). A backfill id that
     * exists with the same run key returns the stored campaign unchanged; with another run key it throws
     * {@link LedgerConflictException}. When a concurrent creator commits the same backfill id first, the duplicate
     * key is caught and the winner's row decides by the same rule.
     */
    @Override
    public synchronized CampaignRecord createCampaign(CampaignBlueprint blueprint, String normalisedSpecJson) {
        return call("createCampaign", () -> {
            try {
                return db.inTransaction(() -> createOrMatch(blueprint, normalisedSpecJson));
            } catch (SQLException e) {
                if (!db.isDuplicateKey(e)) {
                    throw e;
                }
                return db.inTransaction(() -> createOrMatch(blueprint, normalisedSpecJson));
            }
        });
    }

    private CampaignRecord createOrMatch(CampaignBlueprint blueprint, String specJson) throws SQLException {
        String backfillId = blueprint.definition().spec().getBackfillId();
        CampaignIdentity identity = blueprint.identity();
        Optional<CampaignRecord> existing = campaigns.byBackfillId(backfillId);
        if (existing.isPresent()) {
            return LedgerConflictException.sameCampaignOrConflict(existing.get(), backfillId, identity);
        }
        campaigns.insert(blueprint, specJson);
        chunks.insertPlan(identity.runKey(), blueprint.plan());
        return campaigns.byRunKey(identity.runKey()).orElseThrow();
    }

    /**
     * Takes the lease when it is free, expired by the database clock, or already this owner's. A takeover (from
     * another owner or from nobody) increments the epoch, which fences every write of the previous holder; the
     * same owner renews and keeps its epoch. Empty when another owner holds a live lease.
     */
    @Override
    public synchronized Optional<CampaignLease> acquireLease(String runKey, String owner, Duration ttl) {
        long ttlMillis = ttlMillis(ttl);
        return call("acquireLease", () -> campaigns.acquireLease(runKey, owner, ttlMillis));
    }

    /** The driver lock is a lock owned by this store's database session (ADR 0016); the claim is {@link DriverLockedLease}'s. */
    @Override
    public synchronized CampaignClaim claimCampaign(String runKey, String owner, Duration ttl) {
        long ttlMillis = ttlMillis(ttl);
        return call("claimCampaign", () -> leases.claim(runKey, owner, ttlMillis));
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

    @Override
    public synchronized boolean transition(CampaignLease lease, CampaignPhase from, CampaignPhase to,
                                           String detailJson) {
        return call("transition", () -> campaigns.transition(lease, from, to, detailJson));
    }

    @Override
    public synchronized boolean recordAnchor(CampaignLease lease, String anchorXmin) {
        Objects.requireNonNull(anchorXmin, "anchorXmin");
        return call("recordAnchor", () -> campaigns.recordAnchor(lease, anchorXmin));
    }

    @Override
    public synchronized boolean recordShapes(CampaignLease lease, String sourceShapeDigest, String targetShapeDigest,
                                             String liveBaselineJson) {
        return call("recordShapes", () -> campaigns.recordShapes(lease, sourceShapeDigest, targetShapeDigest,
                liveBaselineJson));
    }

    @Override
    public synchronized boolean recordRowEncoding(CampaignLease lease, String rowEncoding) {
        Objects.requireNonNull(rowEncoding, "rowEncoding");
        return call("recordRowEncoding", () -> campaigns.recordRowEncoding(lease, rowEncoding));
    }

    /** One transaction: the proved lease is held while every chunk's estimate is written. */
    @Override
    public synchronized boolean recordChunkEstimates(CampaignLease lease, List<Long> rowsPerChunk) {
        return call("recordChunkEstimates", () -> db.inTransaction(() -> {
            if (!campaigns.proveLease(lease)) {
                return false;
            }
            chunks.recordEstimates(lease.runKey(), rowsPerChunk);
            return true;
        }));
    }

    @Override
    public synchronized boolean setStopRequested(CampaignLease lease, boolean stop) {
        return call("setStopRequested", () -> campaigns.setStopRequested(lease, stop));
    }

    @Override
    public synchronized Optional<PublicationApproval> approvePublication(String runKey, String approvedBy) {
        return call("approvePublication", () -> {
            if (campaigns.byRunKey(runKey).isEmpty()) {
                return Optional.<PublicationApproval>empty();
            }
            campaigns.approve(runKey, approvedBy);
            return campaigns.approval(runKey);
        });
    }

    @Override
    public synchronized Optional<PublicationApproval> publicationApproval(String runKey) {
        return call("publicationApproval", () -> campaigns.ledgerPresent() ? campaigns.approval(runKey) : Optional.empty());
    }

    @Override
    public synchronized void joinGroup(String runKey, String group, String termsDigest, String schema, String liveTable) {
        call("joinGroup", () -> {
            receipts.joinGroup(runKey, group, termsDigest, schema, liveTable);
            return null;
        });
    }

    @Override
    public synchronized boolean markGroupReady(CampaignLease lease, io.dpone.backfill.core.ledger.GroupMember.Readiness readiness) {
        return call("markGroupReady", () -> receipts.markGroupReady(lease, readiness));
    }

    @Override
    public synchronized List<io.dpone.backfill.core.ledger.GroupMember> groupMembers(String group) {
        return call("groupMembers", () -> campaigns.ledgerPresent() ? receipts.groupMembers(group) : List.of());
    }

    @Override
    public synchronized boolean recordThrottle(String runKey, io.dpone.backfill.core.ledger.ThrottleSetting setting) {
        return call("recordThrottle", () -> campaigns.recordThrottle(runKey, setting));
    }

    @Override
    public synchronized io.dpone.backfill.core.ledger.ThrottleSetting throttle(String runKey) {
        return call("throttle", () -> campaigns.ledgerPresent() ? campaigns.throttle(runKey)
                : io.dpone.backfill.core.ledger.ThrottleSetting.NONE);
    }

    @Override
    public synchronized void recordClaimPause(String runKey, io.dpone.backfill.core.ledger.ClaimPause pause) {
        call("recordClaimPause", () -> {
            campaigns.recordClaimPause(runKey, pause == null ? null : pause.text());
            return null;
        });
    }

    @Override
    public synchronized Optional<io.dpone.backfill.core.ledger.ClaimPause> claimPause(String runKey) {
        return call("claimPause", () -> campaigns.ledgerPresent()
                ? campaigns.claimPause(runKey).map(io.dpone.backfill.core.ledger.ClaimPause::parse)
                : Optional.<io.dpone.backfill.core.ledger.ClaimPause>empty());
    }

    @Override
    public synchronized ChunkCounts counts(String runKey, int maxAttempts) {
        return call("counts", () -> chunks.counts(runKey, maxAttempts));
    }

    @Override
    public synchronized boolean holdLaneLock(String runKey, String owner) {
        return call("holdLaneLock", () -> chunks.holdLaneLock(runKey, owner));
    }

    /** In chunk order; {@code leaseExpired} is judged by the database clock. */
    @Override
    public synchronized List<ChunkRecord> claimable(String runKey, int maxAttempts, boolean retryFailed, int limit) {
        return call("claimable", () -> chunks.claimable(runKey, maxAttempts, retryFailed, limit));
    }

    @Override
    public synchronized Optional<ChunkClaim> claim(String runKey, ChunkRecord seen, String owner, Duration ttl) {
        long ttlMillis = ttlMillis(ttl);
        return call("claim", () -> chunks.claim(runKey, seen, owner, ttlMillis));
    }

    /** Only a live claim is renewable: once expired, another lane may already have the chunk. */
    @Override
    public synchronized boolean renewChunk(ChunkClaim claim, Duration ttl, long rowsCopied) {
        long ttlMillis = ttlMillis(ttl);
        return call("renewChunk", () -> chunks.renew(claim, ttlMillis, rowsCopied));
    }

    /** Fenced by owner, epoch and state running; the error is kept (bounded) for the status. */
    @Override
    public synchronized boolean failChunk(ChunkClaim claim, String error) {
        return call("failChunk", () -> chunks.fail(claim, error, false));
    }

    /** As {@link #failChunk}, and the chunk is not claimed again until the campaign is resumed. */
    @Override
    public synchronized boolean refuseChunk(ChunkClaim claim, String error) {
        return call("refuseChunk", () -> chunks.fail(claim, error, true));
    }

    @Override
    public synchronized Optional<ChunkRecord> firstRefusedChunk(String runKey) {
        return call("firstRefusedChunk", () -> chunks.firstRefused(runKey));
    }

    @Override
    public synchronized boolean abandonChunk(ChunkClaim claim, String reason) {
        return call("abandonChunk", () -> chunks.abandon(claim, reason));
    }

    @Override
    public synchronized boolean hasChunkReceipt(String runKey, int chunkId) {
        return call("hasChunkReceipt", () -> receipts.hasChunkReceipt(runKey, chunkId));
    }

    /** Fenced by owner and epoch; the receipt's row count becomes both rows loaded and rows extracted. */
    @Override
    public synchronized boolean commitFromReceipt(ChunkClaim claim) {
        return call("commitFromReceipt", () -> chunks.commitFromReceipt(claim));
    }

    /**
     * One transaction: the proved lease is held while failed chunks go back to pending with zero attempts. Returns 0
     * when the lease is not held; the caller's next fenced write then reports the lost lease.
     */
    @Override
    public synchronized int requeueFailed(CampaignLease lease) {
        return call("requeueFailed", () -> db.inTransaction(() ->
                campaigns.proveLease(lease) ? chunks.requeueFailed(lease.runKey()) : 0));
    }

    @Override
    public synchronized List<ChunkRecord> chunks(String runKey, int offset, int limit) {
        return call("chunks", () -> chunks.page(runKey, offset, limit));
    }

    @Override
    public synchronized Optional<PublicationReceipt> publicationReceipt(String runKey) {
        return call("publicationReceipt", () -> receipts.publicationReceipt(runKey));
    }

    @Override
    public synchronized Optional<HandoffReceipt> handoffReceipt(String runKey) {
        return call("handoffReceipt", () -> receipts.handoffReceipt(runKey));
    }

    /**
     * One transaction: a fenced update of the campaign row proves the lease (and holds the row, so two holders
     * cannot interleave here), then the receipt is inserted unless one exists. An existing receipt with the same
     * anchor is a replay (true); another anchor is refused (false).
     */
    @Override
    public synchronized boolean recordHandoff(CampaignLease lease, HandoffReceipt receipt) {
        if (!lease.runKey().equals(receipt.runKey())) {
            throw new IllegalArgumentException("handoff receipt for run key " + receipt.runKey()
                    + " offered under the lease of run key " + lease.runKey());
        }
        return call("recordHandoff", () -> db.inTransaction(() -> campaigns.touch(lease)
                && receipts.insertHandoff(lease, receipt).map(receipt.anchorXmin()::equals).orElse(false)));
    }

    @Override
    public synchronized Optional<RollbackReceipt> rollbackReceipt(String runKey) {
        return call("rollbackReceipt", () -> receipts.rollbackReceipt(runKey));
    }

    @Override
    public synchronized Map<Integer, String> chunkDigests(String runKey) {
        return call("chunkDigests", () -> receipts.chunkDigests(runKey));
    }

    @Override
    public synchronized void recordVerification(String runKey, String summaryJson) {
        call("recordVerification", () -> {
            receipts.recordVerification(runKey, summaryJson);
            return null;
        });
    }

    @Override
    public synchronized Optional<String> verification(String runKey) {
        return call("verification", () -> receipts.verification(runKey));
    }

    private <T> T call(String operation, LedgerWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw db.failure("ledger " + operation + " in schema " + stateSchema, e);
        }
    }

    /** Positive, and no longer than the database's statements can add to its clock (refused, never wrapped). */
    private long ttlMillis(Duration ttl) {
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("lease ttl must be positive: " + ttl);
        }
        long millis = ttl.toMillis();
        if (millis > db.maxLeaseMillis()) {
            throw new IllegalArgumentException("lease ttl " + ttl + " is longer than this target's ledger can hold ("
                    + db.maxLeaseMillis() + " ms)");
        }
        return millis;
    }
}

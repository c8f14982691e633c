package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.RetryPolicy;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.heal.ConnectionLoss;
import io.dpone.backfill.core.heal.HealingTimings;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.publish.LiveTargetBaseline;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One lane: pulls chunks from the ledger's single queue and commits them one at a time, never waiting for other
 * lanes. Claims are optimistic (epoch compare-and-set), leases are renewed while a chunk copies, and a chunk whose
 * receipt already exists is repaired from it instead of being copied again.
 */
public final class LaneWorker {
    private static final int CLAIM_BATCH = 8;
    private static final Duration IDLE_POLL = Duration.ofMillis(500);
    /**
     * How often the lane reads the three tables' shapes from the catalogs: before its first chunk, then at most this
     * often. Chunks of a plan sized for real tables take longer, so each is still checked; a plan of tiny chunks
     * (thousands of 10 ms chunks) no longer reads the catalogs for every one (issue 11). Drift stops the lane within
     * about this long; the driver checks the same shapes at every step and again before publication.
     */
    static final Duration DRIFT_CHECK_EVERY = Duration.ofMillis(100);

    private final String runKey;
    private final String owner;
    private final int laneIndex;
    private final LedgerStore ledger;
    private final ChunkCommitter committer;
    private final ChunkPlan plan;
    private final BackfillCampaignSpec spec;
    private final EngineTimings timings;
    private final ShapeProbe shapes;
    private final FaultPoints faults;
    private final Consumer<String> log;
    private final Duration stallDeadline;
    private final Runnable abortConnections;
    /** The pause this lane last said it waits for; null while it claims. */
    private io.dpone.backfill.core.ledger.ClaimPause pausedFor;

    public LaneWorker(String runKey, String owner, int laneIndex, LedgerStore ledger, ChunkCommitter committer,
                      ChunkPlan plan, BackfillCampaignSpec spec, EngineTimings timings, ShapeProbe shapes,
                      FaultPoints faults, Consumer<String> log) {
        this(runKey, owner, laneIndex, ledger, committer, plan, spec, timings, shapes, faults, log,
                HealingTimings.DEFAULTS.stallDeadline(), () -> { });
    }

    /**
     * {@code abortConnections} closes the lane's connections from another thread: the chunk deadline calls it when
     * a chunk made no progress for {@code stallDeadline} or its lease renewal went silent, so a hung call fails
     * instead of waiting forever.
     */
    public LaneWorker(String runKey, String owner, int laneIndex, LedgerStore ledger, ChunkCommitter committer,
                      ChunkPlan plan, BackfillCampaignSpec spec, EngineTimings timings, ShapeProbe shapes,
                      FaultPoints faults, Consumer<String> log, Duration stallDeadline, Runnable abortConnections) {
        this.stallDeadline = stallDeadline;
        this.abortConnections = abortConnections;
        this.runKey = runKey;
        this.owner = owner;
        this.laneIndex = laneIndex;
        this.ledger = ledger;
        this.committer = committer;
        this.plan = plan;
        this.spec = spec;
        this.timings = timings;
        this.shapes = shapes;
        this.faults = faults;
        this.log = log;
    }

    public LaneExit run() throws InterruptedException {
        return run(() -> true);
    }

    /**
     * Runs until nothing is left, a stop is requested, or {@code supervised} turns false (a local lane whose driver
     * was killed stops claiming: nobody would replace it, step the campaign or kill it).
     */
    public LaneExit run(java.util.function.BooleanSupplier supervised) throws InterruptedException {
        boolean retryFailed = spec.getRetryPolicy() == RetryPolicy.NON_COMMITTED;
        int maxAttempts = spec.getMaxChunkAttempts();
        // Before the first claim (ADR 0021): once this session is gone, its chunk goes to another lane at once.
        if (!ledger.holdLaneLock(runKey, owner)) {
            log.accept("no lane lock for " + owner + " (a stale session of this lane holds it, or this target takes"
                    + " none): a chunk this lane leaves behind waits for its lease to expire");
        }
        long nextDriftCheck = System.nanoTime();
        while (true) {
            if (!supervised.getAsBoolean()) {
                log.accept("the driver that started this lane is gone: no new claims");
                return LaneExit.STOP_REQUESTED;
            }
            CampaignRecord campaign = ledger.findByRunKey(runKey)
                    .orElseThrow(() -> new IllegalStateException("campaign " + runKey + " is not in the ledger"));
            if (campaign.stopRequested() || campaign.phase() != CampaignPhase.Loading) {
                log.accept("stop requested (phase " + campaign.phase() + "): no new claims");
                return LaneExit.STOP_REQUESTED;
            }
            // A changed table must block the campaign before many more rows are loaded: checked before the first
            // chunk, then at most every DRIFT_CHECK_EVERY.
            if (System.nanoTime() - nextDriftCheck >= 0) {
                if (drifted(campaign)) {
                    log.accept("the source, the load table or the live target changed shape since preparation; stopping");
                    return LaneExit.DRIFT;
                }
                nextDriftCheck = System.nanoTime() + DRIFT_CHECK_EVERY.toNanos();
            }
            // The lane count in force (issue 28): a lane past it finishes here, between chunks, and stops.
            int lanes = ledger.throttle(runKey).lanes();
            if (laneIndex >= lanes) {
                log.accept("the campaign runs " + lanes + " lane(s) now: lane " + laneIndex + " stops (no chunk in hand)");
                return LaneExit.STOP_REQUESTED;
            }
            // The source guard and the load windows (issue 28): the driver records a pause; a lane finishes its chunk
            // but claims no new one while it holds.
            Optional<io.dpone.backfill.core.ledger.ClaimPause> pause = ledger.claimPause(runKey);
            if (pause.isPresent()) {
                if (!pause.get().equals(pausedFor)) {
                    log.accept("claims paused (" + pause.get().reason() + "): " + pause.get().message());
                    pausedFor = pause.get();
                }
                Thread.sleep(IDLE_POLL.toMillis());
                continue;
            }
            if (pausedFor != null) {
                log.accept("claims resume (" + pausedFor.reason() + " cleared)");
                pausedFor = null;
            }
            List<ChunkRecord> candidates = ledger.claimable(runKey, maxAttempts, retryFailed, CLAIM_BATCH);
            if (candidates.isEmpty()) {
                ChunkCounts counts = ledger.counts(runKey, maxAttempts);
                int retriable = retryFailed ? counts.failed() - counts.failedExhausted() : 0;
                if (counts.pending() + counts.running() + retriable == 0) {
                    return LaneExit.NOTHING_LEFT;
                }
                Thread.sleep(IDLE_POLL.toMillis());
                continue;
            }
            claimOne(candidates).ifPresent(this::process);
        }
    }

    private boolean drifted(CampaignRecord campaign) {
        LiveTargetBaseline live = LiveTargetBaseline.parse(campaign.liveBaseline());
        return !shapes.sourceDigest().equals(campaign.sourceShapeDigest())
                || !shapes.loadTableDigest().equals(campaign.targetShapeDigest())
                || live == null || !shapes.liveTargetDigest().equals(live.shape().digest());
    }

    /** Lanes start at different offsets of the candidate list so they rarely race for the same chunk. */
    private Optional<ChunkClaim> claimOne(List<ChunkRecord> candidates) {
        for (int i = 0; i < candidates.size(); i++) {
            ChunkRecord seen = candidates.get((i + laneIndex) % candidates.size());
            Optional<ChunkClaim> claim = ledger.claim(runKey, seen, owner, timings.leaseTtl());
            if (claim.isPresent()) {
                return claim;
            }
        }
        return Optional.empty();
    }

    private void process(ChunkClaim claim) {
        faults.reached(FaultPoint.AFTER_CLAIM, claim.chunkId());
        // A replay probes the receipt, never the source: the rows may already be committed.
        if (ledger.hasChunkReceipt(runKey, claim.chunkId())) {
            boolean repaired = ledger.commitFromReceipt(claim);
            log.accept("chunk " + claim.chunkId() + ": receipt found, " + (repaired ? "ledger repaired" : "lease lost"));
            return;
        }
        long started = System.nanoTime();
        try (ChunkLeaseRenewer renewer = new ChunkLeaseRenewer(ledger, claim, timings, stallDeadline, reason -> {
            log.accept("chunk " + claim.chunkId() + ": " + reason + ": aborting the lane's connections");
            abortConnections.run();
        })) {
            ChunkOutcome outcome = committer.commit(claim, plan.chunk(claim.chunkId()), renewer);
            switch (outcome.kind()) {
                case COMMITTED -> log.accept(String.format("chunk %d committed: %d rows in %.1f s (attempt %d)",
                        claim.chunkId(), outcome.rowsLoaded(), (System.nanoTime() - started) / 1e9, claim.attempt()));
                case ALREADY_RECEIPTED -> ledger.commitFromReceipt(claim);
                case LEASE_LOST -> log.accept("chunk " + claim.chunkId() + ": lease lost, rolled back (" + outcome.detail() + ")");
            }
        } catch (Exception e) {
            if (ConnectionLoss.is(e)) {
                // Not the chunk's failure: its transaction went with the connection. The lane reconnects.
                throw new LaneConnectionLostException(claim, e);
            }
            String error = e.getClass().getSimpleName() + ": " + e.getMessage();
            // A refusal of the rows themselves fails the same way on every attempt: the campaign stops on it now.
            boolean refused = committer.repeatsOnRetry(e);
            boolean recorded = refused ? ledger.refuseChunk(claim, error) : ledger.failChunk(claim, error);
            log.accept("chunk " + claim.chunkId() + (refused ? " refused by the target, not retried" : " failed")
                    + " (attempt " + claim.attempt() + "): " + error + (recorded ? "" : " [lease already lost]"));
        }
    }
}

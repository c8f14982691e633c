package io.dpone.backfill.core.ledger;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkPlan;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@link LedgerStore} contract (src-docs/architecture.md sections 5 and 6), run against every adapter that can
 * run here. {@link #newStore()} and {@link #otherStore()} are two connections to the same, empty ledger: a driver
 * and a lane, or two lanes. Expiry is tested with a short lease and {@link #letLeasesRunFor}: a real sleep where leases
 * run on the database's clock, an advanced clock where the store has one of its own (the in-memory ledger).
 */
public abstract class LedgerStoreContract {
    protected static final Duration LONG_TTL = Duration.ofSeconds(60);
    protected static final Duration SHORT_TTL = Duration.ofSeconds(1);
    private static final long PAST_SHORT_TTL_MILLIS = 1250;
    /**
     * For tests that first assert a claim is still live, then that it expired: long enough that a slow engine (a
     * loaded CI machine running Babelfish) cannot let it run out between the claim and the first read.
     */
    private static final Duration LIVE_THEN_EXPIRED_TTL = Duration.ofSeconds(4);
    private static final long PAST_LIVE_THEN_EXPIRED_TTL_MILLIS = 4250;
    private static final int MAX_ATTEMPTS = 3;

    protected LedgerStore store;
    protected LedgerStore other;

    /** A store on a new connection to this test's ledger (the same database and state schema for the whole test). */
    /**
     * Lets {@code duration} pass on the clock the store's leases run on. A database's own clock cannot be moved, so
     * the default sleeps; a store with a clock of its own advances it instead.
     */
    protected void letLeasesRunFor(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    protected abstract LedgerStore newStore();

    /** A second store on its own connection to the same ledger, as another lane or driver would have. */
    protected abstract LedgerStore otherStore();

    /** Writes a chunk receipt as a lane's sink transaction does; receipts are not written through this port. */
    protected abstract void writeChunkReceipt(String runKey, int chunkId, String owner, long epoch, long rows);

    /**
     * Makes the run look as if it was planned before the progress counters (ADR 0027): its counter rows are gone,
     * so its progress must come from its chunks. A ledger that always counts from its chunks does nothing.
     */
    protected abstract void forgetProgressCounters(String runKey);

    /** A store on a new connection of its own, as a driver that the test will crash with {@link #endSession}. */
    protected abstract LedgerStore storeOnItsOwnSession();

    /**
     * Ends the session of a store from {@link #storeOnItsOwnSession()} as a crash does (its connection is gone), and
     * returns once the server has let go of what it held for {@code runKey}.
     */
    protected abstract void endSession(LedgerStore store, String runKey);

    @BeforeEach
    void openLedger() {
        store = newStore();
        store.ensureSchema();
        other = otherStore();
    }

    // --- schema and campaign creation ---

    @Test
    void ensureSchemaIsIdempotentAndKeepsTheLedger() {
        CampaignRecord created = create(blueprint(8));
        store.ensureSchema();
        other.ensureSchema();
        assertThat(other.findByRunKey(created.runKey())).contains(created);
        assertThat(other.counts(created.runKey(), MAX_ATTEMPTS).total()).isEqualTo(8);
    }

    @Test
    void createCampaignStoresAPlannedCampaignWithEveryChunkPending() {
        CampaignBlueprint blueprint = blueprint(8);
        String specJson = specJson(blueprint);
        CampaignRecord created = store.createCampaign(blueprint, specJson);

        assertThat(created.runKey()).isEqualTo(blueprint.identity().runKey());
        assertThat(created.backfillId()).isEqualTo("events_initial_v1");
        assertThat(created.planDigest()).isEqualTo(blueprint.identity().planDigest());
        assertThat(created.configDigest()).isEqualTo(blueprint.identity().configDigest());
        assertThat(created.specJson()).isEqualTo(specJson);
        assertThat(created.phase()).isEqualTo(CampaignPhase.Planned);
        assertThat(created.leaseOwner()).isNull();
        assertThat(created.leaseEpoch()).isZero();
        assertThat(created.anchorXmin()).isNull();
        assertThat(created.stopRequested()).isFalse();
        assertThat(other.findByBackfillId("events_initial_v1")).contains(created);
        assertThat(other.findByBackfillId("unknown_v1")).isEmpty();
        assertThat(other.findByRunKey("rk-unknown")).isEmpty();

        ChunkCounts counts = other.counts(created.runKey(), MAX_ATTEMPTS);
        assertThat(counts.total()).isEqualTo(8);
        assertThat(counts.pending()).isEqualTo(8);
        assertThat(counts.running() + counts.committed() + counts.failed()).isZero();
        assertThat(counts.secondsSinceFirstStart()).isZero();
        assertThat(other.chunks(created.runKey(), 0, 100)).allSatisfy(c -> {
            assertThat(c.state()).isEqualTo(ChunkState.PENDING);
            assertThat(c.attempts()).isZero();
            assertThat(c.epoch()).isZero();
            assertThat(c.owner()).isNull();
        });
    }

    @Test
    void createCampaignAgainWithTheSameRunKeyReturnsTheStoredCampaignUnchanged() {
        CampaignBlueprint blueprint = blueprint(8);
        CampaignRecord first = store.createCampaign(blueprint, specJson(blueprint));

        CampaignRecord again = other.createCampaign(blueprint, "{\"replayed\":true}");

        assertThat(again).isEqualTo(first);
        assertThat(again.specJson()).isEqualTo(specJson(blueprint));
        assertThat(store.counts(first.runKey(), MAX_ATTEMPTS).total()).isEqualTo(8);
    }

    @Test
    void createCampaignWithAChangedPlanForTheSameBackfillIdThrowsAConflictNamingIt() {
        CampaignRecord first = create(blueprint(8));
        CampaignBlueprint changed = blueprint(16);

        assertThatThrownBy(() -> other.createCampaign(changed, specJson(changed)))
                .isInstanceOf(LedgerConflictException.class)
                .hasMessageContaining("events_initial_v1")
                .hasMessageContaining(first.runKey())
                .hasMessageContaining(changed.identity().runKey())
                .hasMessageContaining("new backfillId");
        assertThat(store.findByBackfillId("events_initial_v1")).contains(first);
        assertThat(store.findByRunKey(changed.identity().runKey())).isEmpty();
        assertThat(store.counts(first.runKey(), MAX_ATTEMPTS).total()).isEqualTo(8);
    }

    @Test
    void createCampaignFromTwoConnectionsAtOnceYieldsOneCampaign() throws Exception {
        for (int round = 0; round < 4; round++) {
            CampaignBlueprint blueprint = blueprint("race_" + round + "_v1", 64);
            List<CampaignRecord> results = race(() -> store.createCampaign(blueprint, specJson(blueprint)),
                    () -> other.createCampaign(blueprint, specJson(blueprint)));
            assertThat(results.get(0)).isEqualTo(results.get(1));
            assertThat(results.get(0).runKey()).isEqualTo(blueprint.identity().runKey());
            assertThat(store.counts(blueprint.identity().runKey(), MAX_ATTEMPTS).total()).isEqualTo(64);
        }
    }

    @Test
    void createCampaignWithTheMaximum16384ChunksStoresEveryBound() {
        // Speed is measured by `backfill bench`, not here; this proves the largest plan is stored whole and exact.
        CampaignBlueprint blueprint = blueprint(16384);
        CampaignRecord created = store.createCampaign(blueprint, specJson(blueprint));
        List<ChunkRecord> chunks = other.chunks(created.runKey(), 0, 20000);
        assertThat(chunks).hasSize(16384);
        assertThat(chunks.get(0).lowerBound()).isNull();
        assertThat(chunks.get(16383).upperBound()).isNull();
        ChunkPlan plan = blueprint.plan();
        for (ChunkRecord c : chunks) {
            assertThat(c.lowerBound()).isEqualTo(plan.boundText(plan.chunk(c.chunkId()).lowerInclusive()));
            assertThat(c.upperBound()).isEqualTo(plan.boundText(plan.chunk(c.chunkId()).upperExclusive()));
        }
        assertThat(chunks.get(1).lowerBound()).isEqualTo(chunks.get(0).upperBound()).isNotNull();
    }

    @Test
    void chunksArePagedInChunkIdOrder() {
        CampaignRecord created = create(blueprint(16));
        assertThat(store.chunks(created.runKey(), 5, 3)).extracting(ChunkRecord::chunkId).containsExactly(5, 6, 7);
        assertThat(store.chunks(created.runKey(), 14, 10)).extracting(ChunkRecord::chunkId).containsExactly(14, 15);
    }

    // --- campaign lease ---

    @Test
    void secondOwnerIsRefusedWhileTheLeaseIsLiveAndTheHolderRenewsWithoutANewEpoch() {
        String runKey = create(blueprint(8)).runKey();
        CampaignLease lease = store.acquireLease(runKey, "driver-a", LONG_TTL).orElseThrow();
        assertThat(lease).isEqualTo(new CampaignLease(runKey, "driver-a", 1));

        assertThat(other.acquireLease(runKey, "driver-b", LONG_TTL)).isEmpty();
        assertThat(store.acquireLease(runKey, "driver-a", LONG_TTL)).contains(lease);
        assertThat(store.renewLease(lease, LONG_TTL)).isTrue();
        assertThat(other.findByRunKey(runKey).orElseThrow().leaseOwner()).isEqualTo("driver-a");
        assertThat(other.findByRunKey(runKey).orElseThrow().leaseEpoch()).isEqualTo(1);
    }

    @Test
    void expiredLeaseIsTakenOverWithTheNextEpochAndFencesTheFormerHolder() throws InterruptedException {
        String runKey = create(blueprint(8)).runKey();
        CampaignLease former = store.acquireLease(runKey, "driver-a", SHORT_TTL).orElseThrow();
        letLeasesRunFor(Duration.ofMillis(PAST_SHORT_TTL_MILLIS));

        CampaignLease taken = other.acquireLease(runKey, "driver-b", LONG_TTL).orElseThrow();

        assertThat(taken.epoch()).isEqualTo(former.epoch() + 1);
        assertThat(store.transition(former, CampaignPhase.Planned, CampaignPhase.Prepared, "{}")).isFalse();
        assertThat(store.renewLease(former, LONG_TTL)).isFalse();
        assertThat(store.acquireLease(runKey, "driver-a", LONG_TTL)).isEmpty();
        assertThat(other.transition(taken, CampaignPhase.Planned, CampaignPhase.Prepared, "{}")).isTrue();
    }

    @Test
    void expiredLeaseCannotBeRenewedEvenWhenNobodyTookItOver() throws InterruptedException {
        String runKey = create(blueprint(8)).runKey();
        CampaignLease lease = store.acquireLease(runKey, "driver-a", SHORT_TTL).orElseThrow();
        letLeasesRunFor(Duration.ofMillis(PAST_SHORT_TTL_MILLIS));

        assertThat(store.renewLease(lease, LONG_TTL)).isFalse();
        assertThat(store.transition(lease, CampaignPhase.Planned, CampaignPhase.Prepared, "{}")).isFalse();
        assertThat(store.findByRunKey(runKey).orElseThrow().phase()).isEqualTo(CampaignPhase.Planned);
    }

    @Test
    void releasedLeaseKeepsItsEpochAndOnlyTheCurrentHolderCanRelease() {
        String runKey = create(blueprint(8)).runKey();
        CampaignLease first = store.acquireLease(runKey, "driver-a", LONG_TTL).orElseThrow();
        store.releaseLease(first);

        CampaignRecord released = other.findByRunKey(runKey).orElseThrow();
        assertThat(released.leaseOwner()).isNull();
        assertThat(released.leaseExpires()).isNull();
        assertThat(released.leaseEpoch()).isEqualTo(first.epoch());

        CampaignLease second = store.acquireLease(runKey, "driver-a", LONG_TTL).orElseThrow();
        assertThat(second.epoch()).as("taking a free lease is a takeover, even by the same owner")
                .isEqualTo(first.epoch() + 1);
        store.releaseLease(first);
        assertThat(other.findByRunKey(runKey).orElseThrow().leaseOwner()).as("a stale release frees nothing")
                .isEqualTo("driver-a");
        assertThat(store.renewLease(first, LONG_TTL)).isFalse();
        assertThat(other.acquireLease(runKey, "driver-b", LONG_TTL)).isEmpty();
        assertThat(store.renewLease(second, LONG_TTL)).isTrue();
    }

    // --- the driver lock (ADR 0016) ---

    @Test
    void aFreeDriverLockLetsAnotherDriverTakeOverAnUnexpiredLeaseAtOnceWithTheNextEpoch() {
        String runKey = create(blueprint(8)).runKey();
        assertThat(leaseOfACrashedDriver(runKey, "driver-a")).isEqualTo(new CampaignLease(runKey, "driver-a", 1));

        CampaignClaim.Taken second = taken(other.claimCampaign(runKey, "driver-b", LONG_TTL));

        assertThat(second.lease()).isEqualTo(new CampaignLease(runKey, "driver-b", 2));
        assertThat(second.tookOverFrom()).as("driver-a's lease row had a minute left").isEqualTo("driver-a");
        CampaignRecord row = store.findByRunKey(runKey).orElseThrow();
        assertThat(row.leaseOwner()).isEqualTo("driver-b");
        assertThat(row.leaseEpoch()).isEqualTo(2);
        assertThat(other.renewLease(second.lease(), LONG_TTL)).isTrue();
    }

    @Test
    void aHeldDriverLockRefusesAnotherDriverEvenAfterTheLeaseRowExpired() throws InterruptedException {
        String runKey = create(blueprint(8)).runKey();
        taken(store.claimCampaign(runKey, "driver-a", SHORT_TTL));
        letLeasesRunFor(Duration.ofMillis(PAST_SHORT_TTL_MILLIS));

        CampaignClaim refused = other.claimCampaign(runKey, "driver-b", LONG_TTL);

        assertThat(refused).isInstanceOfSatisfying(CampaignClaim.Held.class, held -> {
            assertThat(held.owner()).isEqualTo("driver-a");
            assertThat(held.since()).isNotNull();
            assertThat(held.leaseExpires()).isNotNull().isAfterOrEqualTo(held.since());
        });
        assertThat(other.claimCampaign(runKey, "driver-b", LONG_TTL)).as("asked again").isInstanceOf(CampaignClaim.Held.class);
        CampaignRecord row = other.findByRunKey(runKey).orElseThrow();
        assertThat(row.leaseOwner()).as("nothing was written").isEqualTo("driver-a");
        assertThat(row.leaseEpoch()).isEqualTo(1);
    }

    @Test
    void closingTheHoldersConnectionFreesTheDriverLock() {
        String runKey = create(blueprint(8)).runKey();
        LedgerStore holder = storeOnItsOwnSession();
        taken(holder.claimCampaign(runKey, "driver-a", LONG_TTL));
        assertThat(other.claimCampaign(runKey, "driver-b", LONG_TTL)).isInstanceOf(CampaignClaim.Held.class);

        endSession(holder, runKey);

        assertThat(other.claimCampaign(runKey, "driver-b", LONG_TTL)).isInstanceOf(CampaignClaim.Taken.class);
    }

    @Test
    void theFormerHoldersFencedWritesFailAfterATakeover() {
        String runKey = create(blueprint(8)).runKey();
        CampaignLease former = leaseOfACrashedDriver(runKey, "driver-a");
        CampaignLease current = taken(other.claimCampaign(runKey, "driver-b", LONG_TTL)).lease();

        // The former driver's other connections (its publisher's) may still reach the database: its lease writes nothing.
        assertThat(store.transition(former, CampaignPhase.Planned, CampaignPhase.Prepared, "{}")).isFalse();
        assertThat(store.recordAnchor(former, "100")).isFalse();
        assertThat(store.recordShapes(former, "source", "target", "{}")).isFalse();
        assertThat(store.recordChunkEstimates(former, List.of(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L))).isFalse();
        assertThat(store.setStopRequested(former, true)).isFalse();
        assertThat(store.requeueFailed(former)).isZero();
        assertThat(store.recordHandoff(former, new HandoffReceipt(runKey, "handoff-1", "100", null))).isFalse();
        assertThat(store.renewLease(former, LONG_TTL)).isFalse();
        store.releaseLease(former);

        CampaignRecord row = other.findByRunKey(runKey).orElseThrow();
        assertThat(row.phase()).isEqualTo(CampaignPhase.Planned);
        assertThat(row.anchorXmin()).isNull();
        assertThat(row.sourceShapeDigest()).isNull();
        assertThat(row.stopRequested()).isFalse();
        assertThat(row.leaseOwner()).as("a stale release frees nothing").isEqualTo("driver-b");
        assertThat(store.handoffReceipt(runKey)).isEmpty();
        assertThat(other.chunks(runKey, 0, 8)).allSatisfy(c -> assertThat(c.rowsEstimated()).isNull());
        assertThat(other.transition(current, CampaignPhase.Planned, CampaignPhase.Prepared, "{}")).isTrue();
    }

    /** A restarted operator container keeps its pod name: a new session is a new driver all the same. */
    @Test
    void aNewSessionOfTheSameOwnerTakesTheNextEpochAndFencesTheOldOne() {
        String runKey = create(blueprint(8)).runKey();
        CampaignLease before = leaseOfACrashedDriver(runKey, "operator-0");

        CampaignClaim.Taken after = taken(other.claimCampaign(runKey, "operator-0", LONG_TTL));

        assertThat(after.lease().epoch()).isEqualTo(before.epoch() + 1);
        assertThat(after.tookOverFrom()).isEqualTo("operator-0");
        assertThat(store.transition(before, CampaignPhase.Planned, CampaignPhase.Prepared, "{}")).isFalse();
        assertThat(other.transition(after.lease(), CampaignPhase.Planned, CampaignPhase.Prepared, "{}")).isTrue();
    }

    /** The operator claims again every pass: on the session that holds the lock, that is a renewal. */
    @Test
    void claimingAgainOnTheHoldingSessionRenewsAndAReleaseFreesTheLockForTheNextDriver() {
        String runKey = create(blueprint(8)).runKey();
        CampaignLease first = taken(store.claimCampaign(runKey, "operator-a", LONG_TTL)).lease();
        CampaignClaim.Taken again = taken(store.claimCampaign(runKey, "operator-a", LONG_TTL));
        assertThat(again.lease()).isEqualTo(first);
        assertThat(again.tookOverFrom()).isNull();

        store.releaseLease(first);
        CampaignClaim.Taken next = taken(other.claimCampaign(runKey, "driver-b", LONG_TTL));

        assertThat(next.lease().epoch()).isEqualTo(first.epoch() + 1);
        assertThat(next.tookOverFrom()).as("a released lease is taken from nobody").isNull();
        assertThat(store.claimCampaign(runKey, "operator-a", LONG_TTL)).isInstanceOf(CampaignClaim.Held.class);
    }

    /** A lease row held without the driver lock (an older build's driver) is taken by the first driver to get the lock. */
    @Test
    void aLeaseHeldWithoutTheDriverLockIsTakenOverByTheFirstDriverThatGetsIt() {
        String runKey = create(blueprint(8)).runKey();
        CampaignLease lockless = other.acquireLease(runKey, "older-driver", LONG_TTL).orElseThrow();

        CampaignClaim.Taken taken = taken(store.claimCampaign(runKey, "driver-a", LONG_TTL));

        assertThat(taken.tookOverFrom()).isEqualTo("older-driver");
        assertThat(taken.lease().epoch()).isEqualTo(lockless.epoch() + 1);
        assertThat(other.renewLease(lockless, LONG_TTL)).as("fenced by the epoch").isFalse();
    }

    /** A driver claims the free campaign on a session of its own, then crashes: its lease row stays live for a minute. */
    private CampaignLease leaseOfACrashedDriver(String runKey, String owner) {
        LedgerStore crashed = storeOnItsOwnSession();
        CampaignClaim.Taken claim = taken(crashed.claimCampaign(runKey, owner, LONG_TTL));
        assertThat(claim.tookOverFrom()).as("the lease was free").isNull();
        endSession(crashed, runKey);
        return claim.lease();
    }

    private static CampaignClaim.Taken taken(CampaignClaim claim) {
        assertThat(claim).isInstanceOf(CampaignClaim.Taken.class);
        return (CampaignClaim.Taken) claim;
    }

    @Test
    void transitionIsFencedByTheLeaseAndTheExpectedPhase() {
        String runKey = create(blueprint(8)).runKey();
        Leases leases = staleAndLiveLease(runKey);

        assertThat(store.transition(leases.stale(), CampaignPhase.Planned, CampaignPhase.Prepared, "{\"x\":1}")).isFalse();
        assertThat(store.findByRunKey(runKey).orElseThrow().phase()).isEqualTo(CampaignPhase.Planned);

        assertThat(other.transition(leases.live(), CampaignPhase.Loading, CampaignPhase.Validating, "{}")).isFalse();
        assertThat(store.findByRunKey(runKey).orElseThrow().phase()).isEqualTo(CampaignPhase.Planned);

        assertThat(other.transition(leases.live(), CampaignPhase.Planned, CampaignPhase.Prepared, "{\"x\":2}")).isTrue();
        CampaignRecord prepared = store.findByRunKey(runKey).orElseThrow();
        assertThat(prepared.phase()).isEqualTo(CampaignPhase.Prepared);
        assertThat(prepared.detail()).isEqualTo("{\"x\":2}");

        assertThat(other.transition(leases.live(), CampaignPhase.Prepared, CampaignPhase.Loading, null)).isTrue();
        CampaignRecord loading = store.findByRunKey(runKey).orElseThrow();
        assertThat(loading.phase()).isEqualTo(CampaignPhase.Loading);
        assertThat(loading.detail()).as("a null detail keeps the previous evidence").isEqualTo("{\"x\":2}");
    }

    @Test
    void recordAnchorStoresOnceAndRefusesADifferentValue() {
        String runKey = create(blueprint(8)).runKey();
        Leases leases = staleAndLiveLease(runKey);

        assertThat(store.recordAnchor(leases.stale(), "300")).isFalse();
        assertThat(store.findByRunKey(runKey).orElseThrow().anchorXmin()).isNull();

        assertThat(other.recordAnchor(leases.live(), "100")).isTrue();
        assertThat(other.recordAnchor(leases.live(), "100")).as("same anchor again").isTrue();
        assertThat(other.recordAnchor(leases.live(), "200")).as("another anchor").isFalse();
        assertThat(store.findByRunKey(runKey).orElseThrow().anchorXmin()).isEqualTo("100");
    }

    @Test
    void chunkEstimatesAreFencedByTheLeaseAndCountedAsWorkLeft() {
        String runKey = create(blueprint(4)).runKey();
        Leases leases = staleAndLiveLease(runKey);
        List<Long> estimates = List.of(10L, 7_000L, 20L, 30L);

        assertThat(store.recordChunkEstimates(leases.stale(), estimates)).isFalse();
        assertThat(store.chunks(runKey, 0, 10)).allSatisfy(c -> assertThat(c.rowsEstimated()).isNull());
        assertThat(store.counts(runKey, MAX_ATTEMPTS).estimates().complete()).as("no estimates yet").isFalse();

        assertThat(other.recordChunkEstimates(leases.live(), estimates)).isTrue();
        assertThat(store.chunks(runKey, 0, 10)).extracting(ChunkRecord::rowsEstimated).containsExactlyElementsOf(estimates);
        ChunkEstimates waiting = store.counts(runKey, MAX_ATTEMPTS).estimates();
        assertThat(waiting.complete()).isTrue();
        assertThat(waiting.waitingRows()).isEqualTo(7_060);
        assertThat(waiting.running()).isEmpty();

        // Chunk 0 runs: it leaves the waiting rows and is listed with its estimate and elapsed time.
        ChunkClaim claim = claimChunk(store, runKey, 0, "lane-a");
        ChunkEstimates running = other.counts(runKey, MAX_ATTEMPTS).estimates();
        assertThat(running.waitingRows()).isEqualTo(7_050);
        assertThat(running.running()).singleElement().satisfies(r -> {
            assertThat(r.estimatedRows()).isEqualTo(10L);
            assertThat(r.secondsRunning()).isBetween(0.0, 30.0);
        });

        assertThat(store.renewChunk(claim, LONG_TTL, 6)).isTrue();
        assertThat(other.counts(runKey, MAX_ATTEMPTS).estimates().running()).singleElement()
                .satisfies(r -> assertThat(r.rowsCopied()).as("progress reported with the renewal").isEqualTo(6));

        // Committed from its receipt: neither waiting nor running.
        writeChunkReceipt(runKey, 0, "lane-a", claim.epoch(), 12);
        assertThat(store.commitFromReceipt(claim)).isTrue();
        ChunkEstimates afterCommit = other.counts(runKey, MAX_ATTEMPTS).estimates();
        assertThat(afterCommit.waitingRows()).isEqualTo(7_050);
        assertThat(afterCommit.running()).isEmpty();

        assertThat(other.recordChunkEstimates(leases.live(), List.of(1L, 2L, 3L, 4L))).as("a replay overwrites").isTrue();
        assertThat(store.counts(runKey, MAX_ATTEMPTS).estimates().waitingRows()).isEqualTo(9);
    }

    @Test
    void recordShapesAndStopRequestAreFencedByTheLease() {
        String runKey = create(blueprint(8)).runKey();
        Leases leases = staleAndLiveLease(runKey);

        assertThat(store.recordShapes(leases.stale(), "src-0", "tgt-0", "{\"live\":0}")).isFalse();
        assertThat(store.setStopRequested(leases.stale(), true)).isFalse();
        CampaignRecord untouched = store.findByRunKey(runKey).orElseThrow();
        assertThat(untouched.sourceShapeDigest()).isNull();
        assertThat(untouched.liveBaseline()).isNull();
        assertThat(untouched.stopRequested()).isFalse();

        assertThat(other.recordShapes(leases.live(), "src-1", "tgt-1", "{\"live\":1}")).isTrue();
        assertThat(other.setStopRequested(leases.live(), true)).isTrue();
        CampaignRecord written = store.findByRunKey(runKey).orElseThrow();
        assertThat(written.sourceShapeDigest()).isEqualTo("src-1");
        assertThat(written.targetShapeDigest()).isEqualTo("tgt-1");
        assertThat(written.liveBaseline()).isEqualTo("{\"live\":1}");
        assertThat(written.stopRequested()).isTrue();

        assertThat(other.setStopRequested(leases.live(), false)).isTrue();
        assertThat(store.findByRunKey(runKey).orElseThrow().stopRequested()).isFalse();
    }

    @Test
    void theRowEncodingIsRecordedFencedByTheLeaseAndEachPreparationOverwritesIt() {
        String runKey = create(blueprint(8)).runKey();
        Leases leases = staleAndLiveLease(runKey);
        assertThat(store.findByRunKey(runKey).orElseThrow().rowEncoding()).as("none before preparation").isNull();

        assertThat(store.recordRowEncoding(leases.stale(), "postgres_copy_binary")).isFalse();
        assertThat(store.findByRunKey(runKey).orElseThrow().rowEncoding()).isNull();

        assertThat(other.recordRowEncoding(leases.live(), "postgres_copy_binary")).isTrue();
        assertThat(store.findByRunKey(runKey).orElseThrow().rowEncoding()).isEqualTo("postgres_copy_binary");
        assertThat(other.recordRowEncoding(leases.live(), "postgres_copy_text")).as("a later preparation's choice wins").isTrue();
        assertThat(store.findByRunKey(runKey).orElseThrow().rowEncoding()).isEqualTo("postgres_copy_text");
    }

    @Test
    void aThrottleIsRecordedWithoutALeaseReadFromAnotherSessionAndTheLastWriteStands() {
        CampaignRecord created = create(blueprint(4));
        String runKey = created.runKey();
        assertThat(other.throttle(runKey)).as("nothing recorded yet").isEqualTo(ThrottleSetting.NONE);

        assertThat(store.recordThrottle(runKey, new ThrottleSetting(100_000, 0, 4))).isTrue();
        assertThat(other.throttle(runKey)).isEqualTo(new ThrottleSetting(100_000, 0, 4));
        assertThat(other.recordThrottle(runKey, new ThrottleSetting(0, 50_000_000, 2))).as("a person, no lease").isTrue();
        assertThat(store.throttle(runKey)).isEqualTo(new ThrottleSetting(0, 50_000_000, 2));

        assertThat(store.findByRunKey(runKey)).as("the campaign row is otherwise untouched").contains(created);
        assertThat(store.recordThrottle("rk-unknown", new ThrottleSetting(1, 0, 1))).isFalse();
        assertThat(store.throttle("rk-unknown")).isEqualTo(ThrottleSetting.NONE);
    }

    @Test
    void aClaimPauseIsRecordedWithoutALeaseSeenByALaneWithItsReasonAndCleared() {
        CampaignRecord created = create(blueprint(4));
        String runKey = created.runKey();
        assertThat(other.claimPause(runKey)).isEmpty();

        ClaimPause busy = new ClaimPause(ClaimPause.SOURCE_GUARD, "the source has 51 active sessions (bound 50)");
        store.recordClaimPause(runKey, busy);
        assertThat(other.claimPause(runKey)).hasValue(busy);
        ClaimPause night = new ClaimPause(ClaimPause.OUTSIDE_LOAD_WINDOW, "outside the load windows (01:00-05:00 UTC): next 01:00");
        store.recordClaimPause(runKey, night);
        assertThat(other.claimPause(runKey)).hasValue(night);
        store.recordClaimPause(runKey, null);
        assertThat(other.claimPause(runKey)).isEmpty();
        assertThat(store.findByRunKey(runKey)).as("the campaign row is otherwise untouched").contains(created);
        assertThat(store.claimPause("rk-unknown")).isEmpty();
    }

    @Test
    void peekFindsACreatedCampaignAndNothingBeforeAndCreatesNothingItself() {
        CampaignBlueprint b = blueprint(4);
        assertThat(store.peek(b.identity().runKey())).isEmpty();
        String runKey = create(b).runKey();
        assertThat(store.peek(runKey)).map(CampaignRecord::phase).contains(io.dpone.backfill.core.campaign.CampaignPhase.Planned);
        assertThat(store.peek("rk-unknown")).isEmpty();
    }

    @Test
    void noChunkCanBeClaimedWhileAStopIsRequested() {
        String runKey = create(blueprint(4)).runKey();
        Leases leases = staleAndLiveLease(runKey);
        ChunkRecord seen = store.claimable(runKey, MAX_ATTEMPTS, false, 1).get(0);
        assertThat(other.setStopRequested(leases.live(), true)).isTrue();
        assertThat(store.claim(runKey, seen, "lane-a", Duration.ofSeconds(30))).as("claim after the stop").isEmpty();
        assertThat(other.setStopRequested(leases.live(), false)).isTrue();
        assertThat(store.claim(runKey, seen, "lane-a", Duration.ofSeconds(30))).as("claim once resumed").isPresent();
    }

    // --- chunk protocol ---

    @Test
    void twoLanesClaimingTheSameSeenChunksWinEachExactlyOnce() throws Exception {
        String runKey = create(blueprint(16)).runKey();
        List<ChunkRecord> seenByA = store.claimable(runKey, MAX_ATTEMPTS, false, 16);
        List<ChunkRecord> seenByB = other.claimable(runKey, MAX_ATTEMPTS, false, 16);
        assertThat(seenByA).isEqualTo(seenByB).hasSize(16);

        List<List<ChunkClaim>> wins = race(() -> claimAll(store, runKey, seenByA, "lane-a"),
                () -> claimAll(other, runKey, seenByB, "lane-b"));

        Set<Integer> won = new HashSet<>();
        wins.forEach(w -> w.forEach(c -> assertThat(won.add(c.chunkId())).as("chunk %d won twice", c.chunkId()).isTrue()));
        assertThat(won).hasSize(16);
        assertThat(store.chunks(runKey, 0, 16)).allSatisfy(c -> {
            assertThat(c.state()).isEqualTo(ChunkState.RUNNING);
            assertThat(c.epoch()).isEqualTo(1);
            assertThat(c.attempts()).isEqualTo(1);
        });
        assertThat(store.claimable(runKey, MAX_ATTEMPTS, true, 16)).isEmpty();
    }

    @Test
    void reclaimedExpiredChunkFencesOutItsFormerOwner() throws InterruptedException {
        String runKey = create(blueprint(2)).runKey();
        ChunkClaim former = store.claim(runKey, firstClaimable(store, runKey), "lane-a", LIVE_THEN_EXPIRED_TTL).orElseThrow();
        assertThat(former.epoch()).isEqualTo(1);
        assertThat(other.claimable(runKey, MAX_ATTEMPTS, false, 10)).extracting(ChunkRecord::chunkId)
                .as("a live claim is not claimable").containsExactly(1);
        assertThat(other.claim(runKey, other.chunks(runKey, 0, 1).get(0), "lane-b", LONG_TTL))
                .as("a live claim cannot be taken even with its current epoch").isEmpty();
        letLeasesRunFor(Duration.ofMillis(PAST_LIVE_THEN_EXPIRED_TTL_MILLIS));

        ChunkRecord expired = firstClaimable(other, runKey);
        assertThat(expired.chunkId()).isZero();
        assertThat(expired.state()).isEqualTo(ChunkState.RUNNING);
        assertThat(expired.leaseExpired()).isTrue();
        assertThat(store.renewChunk(former, LONG_TTL)).as("an expired claim is not renewable").isFalse();

        ChunkClaim current = other.claim(runKey, expired, "lane-b", LONG_TTL).orElseThrow();
        assertThat(current.epoch()).isEqualTo(2);
        assertThat(current.attempt()).isEqualTo(2);
        writeChunkReceipt(runKey, 0, "lane-b", current.epoch(), 42);

        assertThat(store.renewChunk(former, LONG_TTL)).isFalse();
        assertThat(store.failChunk(former, "late failure")).isFalse();
        assertThat(store.commitFromReceipt(former)).isFalse();
        ChunkRecord stillB = store.chunks(runKey, 0, 1).get(0);
        assertThat(stillB.state()).isEqualTo(ChunkState.RUNNING);
        assertThat(stillB.owner()).isEqualTo("lane-b");
        assertThat(stillB.lastError()).isNull();

        assertThat(other.renewChunk(current, LONG_TTL)).isTrue();
        assertThat(other.commitFromReceipt(current)).isTrue();
        ChunkRecord committed = store.chunks(runKey, 0, 1).get(0);
        assertThat(committed.state()).isEqualTo(ChunkState.COMMITTED);
        assertThat(committed.rowsLoaded()).isEqualTo(42);
        assertThat(committed.rowsExtracted()).isEqualTo(42);
        assertThat(committed.leaseExpires()).isNull();
        assertThat(other.renewChunk(current, LONG_TTL)).as("a committed chunk has no lease").isFalse();
        assertThat(other.failChunk(current, "late")).as("nothing moves a chunk back from committed").isFalse();
        assertThat(store.chunks(runKey, 0, 1).get(0).state()).isEqualTo(ChunkState.COMMITTED);
    }

    @Test
    void commitFromReceiptNeedsTheReceipt() {
        String runKey = create(blueprint(2)).runKey();
        ChunkClaim claim = store.claim(runKey, firstClaimable(store, runKey), "lane-a", LONG_TTL).orElseThrow();

        assertThat(store.hasChunkReceipt(runKey, 0)).isFalse();
        assertThat(store.commitFromReceipt(claim)).isFalse();
        writeChunkReceipt(runKey, 0, "lane-a", claim.epoch(), 7);
        assertThat(other.hasChunkReceipt(runKey, 0)).isTrue();
        assertThat(other.hasChunkReceipt(runKey, 1)).isFalse();
        assertThat(other.hasChunkReceipt("rk-other", 0)).isFalse();
        assertThat(store.commitFromReceipt(claim)).isTrue();
        assertThat(store.counts(runKey, MAX_ATTEMPTS).committed()).isEqualTo(1);
    }

    @Test
    void abandonedChunkIsPendingAgainWithoutSpendingAnAttemptAndItsOldEpochIsFenced() {
        String runKey = create(blueprint(1)).runKey();
        ChunkClaim first = store.claim(runKey, firstClaimable(store, runKey), "lane-a", LONG_TTL).orElseThrow();
        assertThat(other.abandonChunk(first, "connection lost: reconnecting")).isTrue();
        assertThat(store.abandonChunk(first, "again")).as("an abandoned chunk is no longer running").isFalse();

        // Claimable under any retry policy: a lost connection is not the chunk's failure.
        List<ChunkRecord> again = other.claimable(runKey, 1, false, 10);
        assertThat(again).hasSize(1);
        assertThat(again.get(0).state()).isEqualTo(ChunkState.PENDING);
        assertThat(again.get(0).attempts()).isZero();
        assertThat(again.get(0).owner()).isNull();
        assertThat(again.get(0).lastError()).isEqualTo("connection lost: reconnecting");

        ChunkClaim second = other.claim(runKey, again.get(0), "lane-a", LONG_TTL).orElseThrow();
        assertThat(second.epoch()).as("claimed again under a new epoch").isEqualTo(first.epoch() + 1);
        assertThat(second.attempt()).isEqualTo(1);
        assertThat(store.renewChunk(first, LONG_TTL)).isFalse();
        assertThat(store.abandonChunk(first, "stale")).as("the old epoch cannot give back the new claim").isFalse();
        writeChunkReceipt(runKey, 0, "lane-a", second.epoch(), 3);
        assertThat(store.commitFromReceipt(second)).isTrue();
        assertThat(other.abandonChunk(second, "late")).as("nothing moves a committed chunk back").isFalse();
        assertThat(store.counts(runKey, 1).committed()).isEqualTo(1);
    }

    @Test
    void failedChunkIsClaimableAgainOnlyWithRetryFailedAndAttemptsLeft() {
        String runKey = create(blueprint(1)).runKey();
        ChunkClaim first = store.claim(runKey, firstClaimable(store, runKey), "lane-a", LONG_TTL).orElseThrow();
        assertThat(store.failChunk(first, "boom")).isTrue();
        assertThat(store.failChunk(first, "boom")).as("a failed chunk is no longer running").isFalse();

        assertThat(other.claimable(runKey, 2, false, 10)).isEmpty();
        List<ChunkRecord> retry = other.claimable(runKey, 2, true, 10);
        assertThat(retry).hasSize(1);
        assertThat(retry.get(0).state()).isEqualTo(ChunkState.FAILED);
        assertThat(retry.get(0).attempts()).isEqualTo(1);
        assertThat(retry.get(0).lastError()).isEqualTo("boom");
        assertThat(retry.get(0).owner()).isNull();

        // The same lane identity again (a restarted lane): only the epoch tells the two attempts apart.
        ChunkClaim second = other.claim(runKey, retry.get(0), "lane-a", LONG_TTL).orElseThrow();
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(second.epoch()).isEqualTo(first.epoch() + 1);
        assertThat(store.renewChunk(first, LONG_TTL)).isFalse();
        assertThat(store.failChunk(first, "stale")).isFalse();
        writeChunkReceipt(runKey, 0, "lane-a", first.epoch(), 1);
        assertThat(store.commitFromReceipt(first)).as("with a receipt present only the epoch can refuse").isFalse();
        assertThat(store.claim(runKey, retry.get(0), "lane-a", LONG_TTL)).as("stale read of the failed chunk").isEmpty();
        assertThat(other.chunks(runKey, 0, 1).get(0).lastError()).as("a new attempt clears the error").isNull();
        assertThat(other.failChunk(second, "boom again")).isTrue();
        assertThat(store.claim(runKey, retry.get(0), "lane-a", LONG_TTL))
                .as("a read of an earlier failure does not claim the later one").isEmpty();

        assertThat(store.claimable(runKey, 2, true, 10)).as("attempts exhausted at max 2").isEmpty();
        assertThat(store.claimable(runKey, 3, true, 10)).hasSize(1);
        assertThat(store.counts(runKey, 2).failedExhausted()).isEqualTo(1);
        assertThat(store.counts(runKey, 3).failedExhausted()).isZero();
    }

    /** Issue 35: a refusal of the rows spends no further attempts; only a resume (requeue) makes it claimable. */
    @Test
    void aRefusedChunkIsOutOfAttemptsAtOnceAndClaimableAgainOnlyAfterARequeue() {
        String runKey = create(blueprint(2)).runKey();
        Leases leases = staleAndLiveLease(runKey);
        ChunkClaim first = claimChunk(store, runKey, 0, "lane-a");
        assertThat(store.firstRefusedChunk(runKey)).isEmpty();

        assertThat(store.refuseChunk(first, "column \"amount\": value 1e40 is refused")).isTrue();
        assertThat(store.refuseChunk(first, "again")).as("fenced: no longer running").isFalse();

        assertThat(other.claimable(runKey, MAX_ATTEMPTS, true, 10)).extracting(ChunkRecord::chunkId)
                .as("attempts left, retry on, and still not claimable").containsExactly(1);
        ChunkRecord seen = other.chunks(runKey, 0, 1).get(0);
        assertThat(other.claim(runKey, seen, "lane-b", LONG_TTL)).as("nor by a claim of a stale read").isEmpty();
        ChunkCounts counts = store.counts(runKey, MAX_ATTEMPTS);
        assertThat(counts.failed()).isEqualTo(1);
        assertThat(counts.failedExhausted()).isEqualTo(1);
        ChunkRecord refused = other.firstRefusedChunk(runKey).orElseThrow();
        assertThat(refused.chunkId()).isZero();
        assertThat(refused.attempts()).isEqualTo(1);
        assertThat(refused.lastError()).isEqualTo("column \"amount\": value 1e40 is refused");

        assertThat(other.requeueFailed(leases.live())).isEqualTo(1);
        assertThat(store.firstRefusedChunk(runKey)).isEmpty();
        assertThat(store.counts(runKey, MAX_ATTEMPTS).failedExhausted()).isZero();
        assertThat(store.claimable(runKey, MAX_ATTEMPTS, false, 10)).extracting(ChunkRecord::chunkId).containsExactly(0, 1);
        ChunkClaim again = claimChunk(store, runKey, 0, "lane-a");
        assertThat(store.failChunk(again, "lock timeout")).isTrue();
        assertThat(store.claimable(runKey, MAX_ATTEMPTS, true, 10)).extracting(ChunkRecord::chunkId)
                .as("an ordinary failure keeps its retries").containsExactly(0, 1);
    }

    @Test
    void failChunkKeepsTheFirst2000CharactersOfTheError() {
        String runKey = create(blueprint(1)).runKey();
        ChunkClaim claim = store.claim(runKey, firstClaimable(store, runKey), "lane-a", LONG_TTL).orElseThrow();
        String error = "e".repeat(1990) + "0123456789" + "tail".repeat(1000);

        assertThat(store.failChunk(claim, error)).isTrue();

        assertThat(other.chunks(runKey, 0, 1).get(0).lastError()).isEqualTo(error.substring(0, 2000));
    }

    @Test
    void countsReflectEveryChunkStateAndCommittedRows() {
        String runKey = create(blueprint(6)).runKey();
        ChunkClaim c0 = claimChunk(store, runKey, 0, "lane-a");
        ChunkClaim c1 = claimChunk(store, runKey, 1, "lane-a");
        claimChunk(other, runKey, 2, "lane-b");
        ChunkClaim c3 = claimChunk(other, runKey, 3, "lane-b");
        ChunkClaim c4 = claimChunk(other, runKey, 4, "lane-b");
        writeChunkReceipt(runKey, 0, "lane-a", c0.epoch(), 10);
        writeChunkReceipt(runKey, 1, "lane-a", c1.epoch(), 5);
        assertThat(store.commitFromReceipt(c0)).isTrue();
        assertThat(store.commitFromReceipt(c1)).isTrue();
        assertThat(other.failChunk(c3, "x")).isTrue();
        assertThat(other.failChunk(c4, "y")).isTrue();
        ChunkClaim c3again = claimChunk(other, runKey, 3, "lane-b");
        assertThat(other.failChunk(c3again, "x")).isTrue();

        ChunkCounts counts = store.counts(runKey, 2);

        assertThat(counts.total()).isEqualTo(6);
        assertThat(counts.pending()).isEqualTo(1);
        assertThat(counts.running()).isEqualTo(1);
        assertThat(counts.committed()).isEqualTo(2);
        assertThat(counts.failed()).isEqualTo(2);
        assertThat(counts.failedExhausted()).isEqualTo(1);
        assertThat(counts.rowsExtracted()).isEqualTo(15);
        assertThat(counts.rowsLoaded()).isEqualTo(15);
        assertThat(counts.committedLastMinuteRows()).isEqualTo(15);
        assertThat(counts.secondsSinceFirstStart()).isBetween(0.0, 60.0);
        assertThat(counts.allCommitted()).isFalse();
        assertThat(store.counts("rk-unknown", 2).total()).isZero();
    }

    @Test
    void countsAgreeWithTheChunksThemselvesAfterEveryMoveOfTwoLanes() {
        String runKey = create(blueprint(10)).runKey();
        walkAndCount(runKey, 20261202L);
    }

    @Test
    void aRunPlannedBeforeTheProgressCountersIsCountedFromItsChunks() {
        String runKey = create(blueprint(10)).runKey();
        forgetProgressCounters(runKey);
        walkAndCount(runKey, 20261203L);
    }

    /**
     * Estimates (one chunk without), then random claims, renewals, commits from receipts, failures, abandons and a
     * requeue by two lanes; after each move the counts must say what the chunks themselves say.
     */
    private void walkAndCount(String runKey, long seed) {
        int n = 10;
        Leases leases = staleAndLiveLease(runKey);
        assertThat(other.recordChunkEstimates(leases.live(),
                Arrays.asList(10L, 20L, null, 40L, 50L, 60L, 70L, 80L, 90L, 100L))).isTrue();
        Random random = new Random(seed);
        TreeMap<Integer, ChunkClaim> running = new TreeMap<>();
        Map<Integer, Long> copied = new HashMap<>();
        LedgerStore[] lanes = {store, other};
        String[] owners = {"lane-a", "lane-b"};
        assertCountsSayWhatTheChunksSay(runKey, n, copied);
        for (int step = 0; step < 36; step++) {
            int move = running.isEmpty() ? 0 : random.nextInt(6);
            int lane = random.nextInt(2);
            if (step == 24) {
                other.requeueFailed(leases.live());
            } else if (move <= 1) {
                List<ChunkRecord> claimable = lanes[lane].claimable(runKey, MAX_ATTEMPTS, true, 100);
                if (!claimable.isEmpty()) {
                    ChunkRecord seen = claimable.get(random.nextInt(claimable.size()));
                    ChunkClaim claim = lanes[lane].claim(runKey, seen, owners[lane], LONG_TTL).orElseThrow();
                    running.put(claim.chunkId(), claim);
                    copied.put(claim.chunkId(), 0L);
                }
            } else {
                ChunkClaim claim = running.remove(List.copyOf(running.keySet()).get(random.nextInt(running.size())));
                LedgerStore owner = lanes[claim.owner().equals(owners[0]) ? 0 : 1];
                switch (move) {
                    case 2, 3 -> {
                        writeChunkReceipt(runKey, claim.chunkId(), claim.owner(), claim.epoch(), 1000L + claim.chunkId());
                        assertThat(owner.commitFromReceipt(claim)).isTrue();
                        assertThat(owner.commitFromReceipt(claim)).as("a committed chunk is counted once").isFalse();
                    }
                    case 4 -> assertThat(owner.failChunk(claim, "boom")).isTrue();
                    default -> {
                        if (random.nextBoolean()) {
                            assertThat(owner.abandonChunk(claim, "connection lost")).isTrue();
                        } else {
                            long rows = random.nextInt(500);
                            assertThat(owner.renewChunk(claim, LONG_TTL, rows)).isTrue();
                            running.put(claim.chunkId(), claim);
                            copied.put(claim.chunkId(), rows);
                        }
                    }
                }
            }
            assertCountsSayWhatTheChunksSay(runKey, n, copied);
        }
    }

    private void assertCountsSayWhatTheChunksSay(String runKey, int n, Map<Integer, Long> copied) {
        List<ChunkRecord> chunks = store.chunks(runKey, 0, n);
        ChunkCounts counts = other.counts(runKey, MAX_ATTEMPTS);
        Function<ChunkState, Long> in = state -> chunks.stream().filter(c -> c.state() == state).count();
        List<ChunkRecord> committed = chunks.stream().filter(c -> c.state() == ChunkState.COMMITTED).toList();
        List<ChunkRecord> live = chunks.stream().filter(c -> c.state() == ChunkState.RUNNING).toList();
        List<ChunkRecord> open = chunks.stream().filter(c -> c.state() != ChunkState.COMMITTED).toList();
        assertThat(counts.total()).isEqualTo(n);
        assertThat(counts.pending()).as("pending").isEqualTo(in.apply(ChunkState.PENDING).intValue());
        assertThat(counts.running()).as("running").isEqualTo(live.size());
        assertThat(counts.committed()).as("committed").isEqualTo(committed.size());
        assertThat(counts.failed()).as("failed").isEqualTo(in.apply(ChunkState.FAILED).intValue());
        assertThat(counts.failedExhausted()).as("failed, attempts exhausted").isEqualTo((int) chunks.stream()
                .filter(c -> c.state() == ChunkState.FAILED && c.attempts() >= MAX_ATTEMPTS).count());
        long loaded = committed.stream().mapToLong(ChunkRecord::rowsLoaded).sum();
        assertThat(counts.rowsExtracted()).as("rows extracted").isEqualTo(committed.stream().mapToLong(ChunkRecord::rowsExtracted).sum());
        assertThat(counts.rowsLoaded()).as("rows loaded").isEqualTo(loaded);
        assertThat(counts.committedLastMinuteRows()).as("all committed within the test's minute").isEqualTo(loaded);
        assertThat(counts.estimates().complete()).as("estimates complete")
                .isEqualTo(open.stream().allMatch(c -> c.rowsEstimated() != null));
        assertThat(counts.estimates().waitingRows()).as("rows waiting").isEqualTo(open.stream()
                .filter(c -> c.state() != ChunkState.RUNNING && c.rowsEstimated() != null).mapToLong(ChunkRecord::rowsEstimated).sum());
        assertThat(counts.estimates().running()).as("live running chunks, in chunk order").hasSize(live.size());
        for (int i = 0; i < live.size(); i++) {
            assertThat(counts.estimates().running().get(i).estimatedRows()).isEqualTo(live.get(i).rowsEstimated());
            assertThat(counts.estimates().running().get(i).rowsCopied()).isEqualTo(copied.get(live.get(i).chunkId()));
        }
    }

    @Test
    void requeueFailedResetsFailedChunksToPendingOnlyUnderTheLiveLease() {
        String runKey = create(blueprint(4)).runKey();
        Leases leases = staleAndLiveLease(runKey);
        assertThat(store.failChunk(claimChunk(store, runKey, 0, "lane-a"), "x")).isTrue();
        assertThat(store.failChunk(claimChunk(store, runKey, 1, "lane-a"), "y")).isTrue();
        claimChunk(store, runKey, 2, "lane-a");

        assertThat(store.requeueFailed(leases.stale())).isZero();
        assertThat(store.counts(runKey, MAX_ATTEMPTS).failed()).isEqualTo(2);

        assertThat(other.requeueFailed(leases.live())).isEqualTo(2);

        List<ChunkRecord> chunks = store.chunks(runKey, 0, 4);
        for (int id : new int[] {0, 1}) {
            assertThat(chunks.get(id).state()).isEqualTo(ChunkState.PENDING);
            assertThat(chunks.get(id).attempts()).isZero();
            assertThat(chunks.get(id).owner()).isNull();
        }
        assertThat(chunks.get(2).state()).isEqualTo(ChunkState.RUNNING);
        assertThat(store.claimable(runKey, MAX_ATTEMPTS, false, 10)).extracting(ChunkRecord::chunkId)
                .containsExactly(0, 1, 3);
    }

    // --- receipts ---

    @Test
    void recordHandoffReplayReturnsTrueAndADifferentAnchorFalse() {
        String runKey = create(blueprint(8)).runKey();
        Leases leases = staleAndLiveLease(runKey);
        HandoffReceipt receipt = new HandoffReceipt(runKey, "handoff-1", "4711", null);

        assertThat(store.recordHandoff(leases.stale(), receipt)).isFalse();
        assertThat(store.handoffReceipt(runKey)).isEmpty();

        assertThat(other.recordHandoff(leases.live(), receipt)).isTrue();
        assertThat(other.recordHandoff(leases.live(), receipt)).as("replay").isTrue();
        assertThat(other.recordHandoff(leases.live(), new HandoffReceipt(runKey, "handoff-2", "4711", null)))
                .as("replay after a crash with a new receipt id").isTrue();
        assertThat(other.recordHandoff(leases.live(), new HandoffReceipt(runKey, "handoff-3", "4712", null)))
                .as("another anchor").isFalse();

        HandoffReceipt stored = store.handoffReceipt(runKey).orElseThrow();
        assertThat(stored.receiptId()).isEqualTo("handoff-1");
        assertThat(stored.anchorXmin()).isEqualTo("4711");
        assertThat(stored.committedAt()).isNotNull();
    }

    @Test
    void receiptsAreEmptyBeforeTheyAreWritten() {
        String runKey = create(blueprint(8)).runKey();
        assertThat(store.publicationReceipt(runKey)).isEmpty();
        assertThat(store.handoffReceipt(runKey)).isEmpty();
        assertThat(store.rollbackReceipt(runKey)).isEmpty();
    }

    // --- helpers ---

    /** An error text holding NUL (which PostgreSQL text cannot store) is still recorded, the NUL as a space. */
    @Test
    void failChunkRecordsAnErrorThatContainsNul() {
        String runKey = create(blueprint(1)).runKey();
        ChunkRecord seen = store.claimable(runKey, MAX_ATTEMPTS, false, 1).get(0);
        ChunkClaim claim = store.claim(runKey, seen, "lane-a", LONG_TTL).orElseThrow();

        assertThat(store.failChunk(claim, "bad\u0000byte")).isTrue();
        assertThat(store.chunks(runKey, 0, 1).get(0).lastError()).isEqualTo("bad byte");
    }

    protected static CampaignBlueprint blueprint(int buckets) {
        return blueprint("events_initial_v1", buckets);
    }

    protected static CampaignBlueprint blueprint(String backfillId, int buckets) {
        String yaml = CampaignYamlFixture.replaceOnce(CampaignYamlFixture.postgres(), "buckets: 128", "buckets: " + buckets);
        yaml = CampaignYamlFixture.replaceOnce(yaml, "backfillId: events_initial_v1", "backfillId: " + backfillId);
        return CampaignBlueprint.of(CampaignReader.parse(yaml));
    }

    protected static String specJson(CampaignBlueprint blueprint) {
        return CanonicalJson.write(blueprint.definition().spec());
    }

    protected CampaignRecord create(CampaignBlueprint blueprint) {
        return store.createCampaign(blueprint, specJson(blueprint));
    }

    record Leases(CampaignLease stale, CampaignLease live) {
    }

    /** A lease that was released and taken over by another driver, and the live lease that replaced it. */
    private Leases staleAndLiveLease(String runKey) {
        CampaignLease stale = store.acquireLease(runKey, "driver-old", LONG_TTL).orElseThrow();
        store.releaseLease(stale);
        CampaignLease live = other.acquireLease(runKey, "driver-new", LONG_TTL).orElseThrow();
        assertThat(live.epoch()).isGreaterThan(stale.epoch());
        return new Leases(stale, live);
    }

    // --- a lane's lock (ADR 0021) ---
    // The claiming lane is a store on its own session: on Babelfish, which the SQL Server fixture may use, every
    // conflicting application-lock call leaks an error-stack entry of its session and the fifth aborts the server.

    @Test
    void aChunkWhoseLanesSessionEndedIsClaimableAtOnceLongBeforeItsLeaseExpires() throws InterruptedException {
        String runKey = create(blueprint(2)).runKey();
        LedgerStore lane = storeOnItsOwnSession();
        assertThat(lane.holdLaneLock(runKey, "lane-0@host:1:ab")).isTrue();
        assertThat(lane.holdLaneLock(runKey, "lane-0@host:1:ab")).as("held already: nothing more taken").isTrue();
        ChunkClaim former = lane.claim(runKey, firstClaimable(lane, runKey), "lane-0@host:1:ab", LONG_TTL).orElseThrow();
        LedgerStore next = storeOnItsOwnSession();
        assertThat(next.claimable(runKey, MAX_ATTEMPTS, false, 10)).extracting(ChunkRecord::chunkId)
                .as("the lane's session lives: its chunk is not claimable").containsExactly(1);
        assertThat(next.holdLaneLock(runKey, "lane-0@host:1:ab")).as("another session holds that lane's lock").isFalse();

        endSession(lane, runKey);

        // The server lets go of a closed session's locks on its own schedule: seconds, against a 60 s lease.
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        List<ChunkRecord> claimable = next.claimable(runKey, MAX_ATTEMPTS, false, 10);
        while (claimable.size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            claimable = next.claimable(runKey, MAX_ATTEMPTS, false, 10);
        }
        assertThat(claimable).extracting(ChunkRecord::chunkId).as("the dead lane's chunk, its lease still live").containsExactly(0, 1);
        ChunkRecord orphan = claimable.get(0);
        assertThat(orphan.state()).isEqualTo(ChunkState.RUNNING);
        assertThat(orphan.leaseExpired()).isFalse();

        ChunkClaim current = next.claim(runKey, orphan, "lane-1@host:2:cd", LONG_TTL).orElseThrow();
        assertThat(current.epoch()).isEqualTo(former.epoch() + 1);
        assertThat(store.renewChunk(former, LONG_TTL)).as("the former claim is fenced by epoch").isFalse();
        assertThat(store.commitFromReceipt(former)).isFalse();
        assertThat(next.claimable(runKey, MAX_ATTEMPTS, false, 10)).extracting(ChunkRecord::chunkId)
                .as("claimed without the lane lock: lease-only again").containsExactly(1);
    }

    @Test
    void theChunksOfSeveralDeadLanesAreClaimableTogetherWhileALiveLanesIsNot() throws InterruptedException {
        String runKey = create(blueprint(4)).runKey();
        List<LedgerStore> dead = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            LedgerStore lane = storeOnItsOwnSession();
            assertThat(lane.holdLaneLock(runKey, "lane-" + i)).isTrue();
            lane.claim(runKey, firstClaimable(lane, runKey), "lane-" + i, LONG_TTL).orElseThrow();
            dead.add(lane);
        }
        LedgerStore live = storeOnItsOwnSession();
        assertThat(live.holdLaneLock(runKey, "lane-3")).isTrue();
        live.claim(runKey, firstClaimable(live, runKey), "lane-3", LONG_TTL).orElseThrow();

        dead.forEach(lane -> endSession(lane, runKey));

        // endSession returns once the sessions are gone: one read asks about the live lane's held lock once.
        LedgerStore next = storeOnItsOwnSession();
        List<ChunkRecord> claimable = next.claimable(runKey, MAX_ATTEMPTS, false, 10);
        assertThat(claimable).extracting(ChunkRecord::chunkId).as("three dead lanes' chunks, not the live lane's")
                .containsExactly(0, 1, 2);
        assertThat(claimAll(next, runKey, claimable, "lane-4")).hasSize(3);
        assertThat(next.claimable(runKey, MAX_ATTEMPTS, false, 10)).isEmpty();
    }

    @Test
    void aClaimWithoutItsLanesLockKeepsLeaseOnlyRecoveryAfterTheSessionEnds() {
        String runKey = create(blueprint(2)).runKey();
        LedgerStore lane = storeOnItsOwnSession();
        lane.claim(runKey, firstClaimable(lane, runKey), "lane-a", LONG_TTL).orElseThrow();

        endSession(lane, runKey);

        assertThat(other.claimable(runKey, MAX_ATTEMPTS, false, 10)).extracting(ChunkRecord::chunkId)
                .as("no lane lock was held at the claim: only the lease frees the chunk").containsExactly(1);
    }

    @Test
    void aLiveLanesChunkIsClaimableOnceItsLeaseExpiresAsBefore() throws InterruptedException {
        String runKey = create(blueprint(2)).runKey();
        LedgerStore lane = storeOnItsOwnSession();
        LedgerStore next = storeOnItsOwnSession();
        assertThat(lane.holdLaneLock(runKey, "lane-z")).isTrue();
        lane.claim(runKey, firstClaimable(lane, runKey), "lane-z", LIVE_THEN_EXPIRED_TTL).orElseThrow();
        assertThat(next.claimable(runKey, MAX_ATTEMPTS, false, 10)).extracting(ChunkRecord::chunkId).containsExactly(1);

        letLeasesRunFor(Duration.ofMillis(PAST_LIVE_THEN_EXPIRED_TTL_MILLIS));

        assertThat(next.claimable(runKey, MAX_ATTEMPTS, false, 10)).extracting(ChunkRecord::chunkId)
                .as("a frozen lane's session keeps its lock; its lease still runs out").containsExactly(0, 1);
    }

    private static ChunkRecord firstClaimable(LedgerStore lane, String runKey) {
        return lane.claimable(runKey, MAX_ATTEMPTS, false, 1).get(0);
    }

    /** Claims one specific chunk (pending, or failed with retry), as a lane would after reading it. */
    private static ChunkClaim claimChunk(LedgerStore lane, String runKey, int chunkId, String owner) {
        ChunkRecord seen = lane.claimable(runKey, 100, true, 100).stream().filter(c -> c.chunkId() == chunkId)
                .findFirst().orElseThrow();
        return lane.claim(runKey, seen, owner, LONG_TTL).orElseThrow();
    }

    private static List<ChunkClaim> claimAll(LedgerStore lane, String runKey, List<ChunkRecord> seen, String owner) {
        List<ChunkClaim> won = new ArrayList<>();
        for (ChunkRecord chunk : seen) {
            Optional<ChunkClaim> claim = lane.claim(runKey, chunk, owner, LONG_TTL);
            claim.ifPresent(won::add);
        }
        return won;
    }

    /** Runs both calls on two threads released together, so their statements overlap in the database. */
    private static <T> List<T> race(Callable<T> first, Callable<T> second) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CyclicBarrier start = new CyclicBarrier(2);
            Future<T> a = pool.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                return first.call();
            });
            Future<T> b = pool.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                return second.call();
            });
            return List.of(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }
}

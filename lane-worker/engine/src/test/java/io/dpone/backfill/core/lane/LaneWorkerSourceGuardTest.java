package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.InMemoryLedger;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.publish.LiveTargetBaseline;
import io.dpone.backfill.core.publish.TableShape;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lanes and the source guard's pause (issue 28): a lane finishes the chunk it holds, claims nothing while the ledger
 * records a pause, and claims again once it clears; every chunk is committed exactly once. Over the in-memory
 * ledger, with a committer that commits through the chunk's receipt.
 */
class LaneWorkerSourceGuardTest {
    private static final TableShape LIVE = new TableShape(List.of());

    private final InMemoryLedger ledger = new InMemoryLedger();
    private final LedgerStore driver = ledger.connect();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final Map<Integer, AtomicInteger> commits = new ConcurrentHashMap<>();
    private CampaignBlueprint blueprint;
    private String runKey;

    private void loading() {
        driver.ensureSchema();
        blueprint = CampaignBlueprint.of(CampaignReader.parse(CampaignYamlFixture.replaceOnce(CampaignYamlFixture.postgres(),
                "buckets: 128", "buckets: 32")));
        runKey = driver.createCampaign(blueprint, CanonicalJson.write(blueprint.definition().spec())).runKey();
        CampaignLease lease = driver.acquireLease(runKey, "driver", Duration.ofSeconds(60)).orElseThrow();
        assertThat(driver.recordShapes(lease, "s", "l", new LiveTargetBaseline(LIVE, "0:0").json())).isTrue();
        assertThat(driver.transition(lease, CampaignPhase.Planned, CampaignPhase.Prepared, "{}")).isTrue();
        assertThat(driver.transition(lease, CampaignPhase.Prepared, CampaignPhase.Loading, "{}")).isTrue();
    }

    private LaneWorker lane(int index, Runnable afterEachCommit) {
        LedgerStore store = ledger.connect();
        ChunkCommitter committer = (claim, range, watch) -> {
            ledger.writeChunkReceipt(runKey, claim.chunkId(), 1);
            assertThat(store.commitFromReceipt(claim)).isTrue();
            commits.computeIfAbsent(claim.chunkId(), k -> new AtomicInteger()).incrementAndGet();
            afterEachCommit.run();
            return ChunkOutcome.committed(1, 1);
        };
        ShapeProbe shapes = new ShapeProbe() {
            @Override
            public String sourceDigest() {
                return "s";
            }

            @Override
            public String loadTableDigest() {
                return "l";
            }

            @Override
            public String liveTargetDigest() {
                return LIVE.digest();
            }
        };
        return new LaneWorker(runKey, "lane-" + index, index, store, committer, blueprint.plan(), blueprint.definition().spec(),
                new EngineTimings(Duration.ofSeconds(60), Duration.ofSeconds(20), Duration.ofSeconds(10), Duration.ofSeconds(5)),
                shapes, FaultPoints.NONE, log::add);
    }

    private ChunkCounts counts() {
        return driver.counts(runKey, 3);
    }

    /** Waits at most 30 s: a lane that died must fail the test, not hang the build. */
    private void awaitLog(String fragment, int times) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (log.stream().filter(l -> l.contains(fragment)).count() < times) {
            assertThat(System.nanoTime() - deadline).as("'" + fragment + "' logged " + times + " times in 30 s; log:\n"
                    + String.join("\n", log)).isNegative();
            Thread.sleep(5);
        }
    }

    @Test
    void aPauseRecordedMidLoadStopsClaimsAfterTheChunkInHandAndItsEndLetsTheLanesFinishEveryChunkOnce() throws Exception {
        loading();
        AtomicInteger committed = new AtomicInteger();
        // The chunks committed once the pause is in the ledger: the lane that records it may be descheduled between
        // its fifth commit and the record while the other lane commits on, so the bound counts from the record.
        AtomicInteger committedWhenPaused = new AtomicInteger(-1);
        Runnable pauseAtTheFifth = () -> {
            if (committed.incrementAndGet() == 5) {
                driver.recordClaimPause(runKey, new io.dpone.backfill.core.ledger.ClaimPause("SourceGuard",
                        "the source has 51 active sessions (bound 50)"));
                committedWhenPaused.set(counts().committed());
            }
        };
        ExecutorService threads = Executors.newFixedThreadPool(2);
        Future<LaneExit> first = threads.submit(() -> lane(0, pauseAtTheFifth).run());
        Future<LaneExit> second = threads.submit(() -> lane(1, pauseAtTheFifth).run());

        awaitLog("claims paused (SourceGuard): the source has 51 active sessions (bound 50)", 2);
        ChunkCounts paused = counts();
        Thread.sleep(600); // longer than a lane's idle poll: a lane that claimed now would show
        ChunkCounts later = counts();
        driver.recordClaimPause(runKey, null);
        LaneExit a = first.get();
        LaneExit b = second.get();
        threads.shutdown();

        assertThat(paused.running()).as("the chunks in hand finished").isZero();
        // At most the other lane's chunk in hand (claimed before it could read the pause) after the record.
        assertThat(paused.committed()).as(String.join("\n", log)).isGreaterThanOrEqualTo(5)
                .isBetween(committedWhenPaused.get(), committedWhenPaused.get() + 1);
        assertThat(later.committed()).as("nothing claimed during the pause").isEqualTo(paused.committed());
        assertThat(a).isEqualTo(LaneExit.NOTHING_LEFT);
        assertThat(b).isEqualTo(LaneExit.NOTHING_LEFT);
        assertThat(counts().committed()).isEqualTo(32);
        assertThat(commits).hasSize(32).allSatisfy((chunk, n) -> assertThat(n.get()).as("chunk " + chunk).isEqualTo(1));
        assertThat(log).contains("claims resume (SourceGuard cleared)");
    }
}

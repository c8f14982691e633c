package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.InMemoryLedger;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.ThrottleRecorder;
import io.dpone.backfill.core.ledger.ThrottleSetting;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.CampaignIdentity;
import io.dpone.backfill.core.publish.LiveTargetBaseline;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The lane count of a running campaign (issue 28): lowered, lanes past it finish the chunk in hand and stop; raised,
 * the driver starts lanes again; the plan, the run key and the chunks never change, and every chunk is committed
 * exactly once. Over the in-memory ledger, lanes as threads, a committer that commits through the chunk's receipt.
 */
class LaneCountChangeTest {
    private static final TableShape LIVE = new TableShape(List.of());

    private final InMemoryLedger ledger = new InMemoryLedger();
    private final LedgerStore driver = ledger.connect();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final Map<Integer, AtomicInteger> commits = new ConcurrentHashMap<>();
    private final AtomicInteger committed = new AtomicInteger();
    private CampaignBlueprint blueprint;
    private String runKey;

    private static String yaml(String throttle) {
        String four = CampaignYamlFixture.replaceOnce(CampaignYamlFixture.postgres(), "buckets: 128", "buckets: 64");
        return throttle == null ? four : CampaignYamlFixture.replaceOnce(four, "  publication:\n", "  throttle: " + throttle + "\n  publication:\n");
    }

    private void loading(BackfillCampaignSpec spec) {
        driver.ensureSchema();
        blueprint = CampaignBlueprint.of(new io.dpone.backfill.core.campaign.CampaignDefinition("c", null, spec));
        runKey = driver.createCampaign(blueprint, CanonicalJson.write(spec)).runKey();
        CampaignLease lease = driver.acquireLease(runKey, "driver", Duration.ofSeconds(60)).orElseThrow();
        assertThat(driver.recordShapes(lease, "s", "l", new LiveTargetBaseline(LIVE, "0:0").json())).isTrue();
        assertThat(driver.transition(lease, CampaignPhase.Planned, CampaignPhase.Prepared, "{}")).isTrue();
        assertThat(driver.transition(lease, CampaignPhase.Prepared, CampaignPhase.Loading, "{}")).isTrue();
    }

    private LaneWorker lane(int index, Runnable afterEachCommit) {
        LedgerStore store = ledger.connect();
        ChunkCommitter committer = (claim, range, watch) -> {
            Thread.sleep(2); // a chunk takes a moment: the lanes overlap
            ledger.writeChunkReceipt(runKey, claim.chunkId(), 1);
            assertThat(store.commitFromReceipt(claim)).isTrue();
            commits.computeIfAbsent(claim.chunkId(), k -> new AtomicInteger()).incrementAndGet();
            committed.incrementAndGet();
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

    @Test
    void lanesLoweredMidLoadStopAfterTheirChunkRaisedStartAgainAndEveryChunkIsCommittedOnce() throws Exception {
        BackfillCampaignSpec four = CampaignReader.parse(yaml(null)).spec();
        loading(four);
        assertThat(ThrottleRecorder.apply(driver, runKey, four)).as("no ceiling recorded the first time: nothing to tell")
                .isEmpty();
        BackfillCampaignSpec two = CampaignReader.parse(yaml("{lanes: 2}")).spec();
        Runnable lowerAtTheTenth = () -> {
            if (committed.get() == 10) {
                ThrottleRecorder.apply(driver, runKey, two); // as the driver does when the spec changes
            }
        };
        ExecutorService threads = Executors.newFixedThreadPool(4);
        List<Future<LaneExit>> first = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int index = i;
            first.add(threads.submit(() -> lane(index, lowerAtTheTenth).run()));
        }
        LaneExit stoppedTwo = first.get(2).get();
        LaneExit stoppedThree = first.get(3).get();
        int whenStopped = committed.get();

        BackfillCampaignSpec three = CampaignReader.parse(yaml("{lanes: 3}")).spec();
        assertThat(ThrottleRecorder.apply(driver, runKey, three)).as("a lane count changed is told")
                .hasValueSatisfying(t -> assertThat(t.lanes()).isEqualTo(3));
        Future<LaneExit> restarted = threads.submit(() -> lane(2, () -> { }).run()); // the driver starts lane 2 again
        assertThat(first.get(0).get()).isEqualTo(LaneExit.NOTHING_LEFT);
        assertThat(first.get(1).get()).isEqualTo(LaneExit.NOTHING_LEFT);
        assertThat(restarted.get()).isEqualTo(LaneExit.NOTHING_LEFT);
        threads.shutdown();

        assertThat(stoppedTwo).isEqualTo(LaneExit.STOP_REQUESTED);
        assertThat(stoppedThree).isEqualTo(LaneExit.STOP_REQUESTED);
        assertThat(whenStopped).as("lowered mid-load").isBetween(10, 63);
        assertThat(log).contains("the campaign runs 2 lane(s) now: lane 3 stops (no chunk in hand)");
        assertThat(driver.counts(runKey, 3).committed()).isEqualTo(64);
        assertThat(commits).hasSize(64).allSatisfy((chunk, n) -> assertThat(n.get()).as("chunk " + chunk).isEqualTo(1));
        assertThat(CampaignIdentity.of(two, blueprint.plan())).as("a lane count never changes the identity")
                .isEqualTo(blueprint.identity());
        assertThat(driver.throttle(runKey)).isEqualTo(new ThrottleSetting(0, 0, 3));
    }

    @Test
    void theLaneCountInForceIsThrottleLanesNeverMoreThanParallelWorkers() {
        assertThat(ThrottleSetting.lanesOf(CampaignReader.parse(yaml(null)).spec())).isEqualTo(4);
        assertThat(ThrottleSetting.lanesOf(CampaignReader.parse(yaml("{lanes: 1}")).spec())).isEqualTo(1);

        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class,
                () -> CampaignReader.parse(yaml("{lanes: 9}")));
        assertThat(e.errors()).extracting(FieldError::path).contains("spec.throttle.lanes");
        assertThat(e.errors()).extracting(FieldError::message).anyMatch(m -> m.contains("must not exceed spec.parallelWorkers (4)"));
    }
}

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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lane reads the tables' shapes from the catalogs before its first chunk and then at most every
 * {@link LaneWorker#DRIFT_CHECK_EVERY}, not before every tiny chunk (issue 11), and still stops on drift: at once
 * when the shapes differ from the start, within about that interval when they change while it loads. Over the in-memory
 * ledger, a committer that commits through the chunk's receipt, and a probe that counts its catalog reads.
 */
class LaneWorkerDriftCheckTest {
    private static final String SOURCE = "source-shape";
    private static final String LOAD = "load-shape";
    private static final TableShape LIVE = new TableShape(List.of());

    private final InMemoryLedger ledger = new InMemoryLedger();
    private final LedgerStore driver = ledger.connect();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private CampaignBlueprint blueprint;
    private String runKey;

    /** A campaign in Loading whose recorded shapes are the probe's; 128 chunks. */
    private void loading() {
        driver.ensureSchema();
        blueprint = CampaignBlueprint.of(CampaignReader.parse(CampaignYamlFixture.postgres()));
        runKey = driver.createCampaign(blueprint, CanonicalJson.write(blueprint.definition().spec())).runKey();
        CampaignLease lease = driver.acquireLease(runKey, "driver", Duration.ofSeconds(60)).orElseThrow();
        assertThat(driver.recordShapes(lease, SOURCE, LOAD, new LiveTargetBaseline(LIVE, "0:0").json())).isTrue();
        assertThat(driver.transition(lease, CampaignPhase.Planned, CampaignPhase.Prepared, "{}")).isTrue();
        assertThat(driver.transition(lease, CampaignPhase.Prepared, CampaignPhase.Loading, "{}")).isTrue();
    }

    /** Counts catalog reads; reports {@code changedSource} once {@code chunksBeforeChange} chunks committed. */
    private final class CountingProbe implements ShapeProbe {
        final AtomicInteger reads = new AtomicInteger();
        volatile String source = SOURCE;

        @Override
        public String sourceDigest() {
            reads.incrementAndGet();
            return source;
        }

        @Override
        public String loadTableDigest() {
            return LOAD;
        }

        @Override
        public String liveTargetDigest() {
            return LIVE.digest();
        }
    }

    /** Commits a chunk as a sink would, through its receipt; {@code each} is how long one chunk takes. */
    private ChunkCommitter committer(LedgerStore lane, Duration each, Runnable afterEach) {
        return (claim, range, watch) -> {
            Thread.sleep(each.toMillis());
            ledger.writeChunkReceipt(runKey, claim.chunkId(), 1);
            assertThat(lane.commitFromReceipt(claim)).isTrue();
            afterEach.run();
            return ChunkOutcome.committed(1, 1);
        };
    }

    private LaneWorker lane(LedgerStore store, ChunkCommitter committer, ShapeProbe probe) {
        return new LaneWorker(runKey, "lane-0", 0, store, committer, blueprint.plan(), blueprint.definition().spec(),
                new EngineTimings(Duration.ofSeconds(60), Duration.ofSeconds(20), Duration.ofSeconds(10),
                        Duration.ofSeconds(5)), probe, FaultPoints.NONE, log::add);
    }

    private ChunkCounts counts() {
        return driver.counts(runKey, 3);
    }

    @Test
    void aLaneOfTinyChunksReadsTheShapesEvery100MillisecondsNotBeforeEveryChunk() throws Exception {
        loading();
        LedgerStore store = ledger.connect();
        CountingProbe probe = new CountingProbe();
        long started = System.nanoTime();

        LaneExit exit = lane(store, committer(store, Duration.ZERO, () -> { }), probe).run();

        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(exit).isEqualTo(LaneExit.NOTHING_LEFT);
        assertThat(counts().committed()).isEqualTo(128);
        // Before the first chunk, then at most once per elapsed 100 ms: not before each of the 128 chunks.
        assertThat(LaneWorker.DRIFT_CHECK_EVERY).isEqualTo(Duration.ofMillis(100));
        assertThat(probe.reads.get()).isBetween(1, 1 + (int) Math.ceil(seconds * 10));
    }

    @Test
    void aShapeThatDiffersBeforeTheFirstChunkStopsTheLaneWithoutAClaim() throws Exception {
        loading();
        CountingProbe probe = new CountingProbe();
        probe.source = "another-shape";
        LedgerStore store = ledger.connect();

        assertThat(lane(store, committer(store, Duration.ZERO, () -> { }), probe).run()).isEqualTo(LaneExit.DRIFT);
        assertThat(counts().committed()).isZero();
        assertThat(counts().running()).isZero();
    }

    @Test
    void aShapeThatChangesWhileTheLaneLoadsStopsItWithinAboutTheCheckInterval() throws Exception {
        loading();
        CountingProbe probe = new CountingProbe();
        LedgerStore store = ledger.connect();
        AtomicInteger committed = new AtomicInteger();
        Duration each = Duration.ofMillis(20);

        LaneExit exit = lane(store, committer(store, each, () -> {
            if (committed.incrementAndGet() == 3) {
                probe.source = "another-shape";
            }
        }), probe).run();

        assertThat(exit).isEqualTo(LaneExit.DRIFT);
        // The change came after chunk 3; the next check is due at most DRIFT_CHECK_EVERY later, about 5 chunks here.
        long chunksPerInterval = LaneWorker.DRIFT_CHECK_EVERY.toMillis() / each.toMillis();
        assertThat(counts().committed()).isBetween(3, (int) (3 + chunksPerInterval + 2));
        assertThat(log).contains("the source, the load table or the live target changed shape since preparation; stopping");
    }
}

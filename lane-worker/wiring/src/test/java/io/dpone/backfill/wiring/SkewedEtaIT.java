package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.CampaignStatusProjector;
import io.dpone.backfill.core.engine.PhaseDetail;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.targets.postgres.ledger.PostgresLedgerConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 10 on real PostgreSQL: 1,500,000 rows, 70% of them keyed in one of 64 integer ranges, 4 lanes as
 * threads. A reader samples the status (as {@code backfill status} and the operator project it) every 50 ms while
 * the lanes load. The sample closest to 30% of rows loaded must give an ETA within a factor of 2 of the time that
 * actually passed from that sample until every chunk was committed. With committed chunks' average (the old
 * formula) the ETA there is a fraction of a second; the figures are printed for the record.
 * <p>
 * What is asserted, honestly: one campaign, one sample, a factor of 2. Rows loaded count committed chunks only, so
 * with 70% of the rows in one chunk "30% loaded" is the plateau while that chunk runs; the first sample on it is the
 * one taken. Loading lasts several seconds on 2 busy cores, so 50 ms of sampling jitter is small against it.
 */
class SkewedEtaIT {
    private static final int ROWS = 1_500_000;
    private static final int HOT_ROWS = 1_050_000;
    private static final int HOT_CHUNK = 21;
    private static final long WIDTH = 2_000_000;
    private static final String CHUNKS = "{column: id, kind: integer, buckets: 64, lowerBound: 0, upperBound: 128000000}";

    private CampaignHarness h;

    record Sample(long nanos, long rowsLoaded, Long etaSeconds, String basis, Long averageEtaSeconds, boolean done) {
    }

    @BeforeEach
    void setUp() {
        h = new CampaignHarness();
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void theEtaAtThirtyPercentOfASkewedLoadIsWithinAFactorOfTwoOfTheTimeActuallyLeft() throws Exception {
        long hotLower = HOT_CHUNK * WIDTH;
        int coldRows = ROWS - HOT_ROWS;
        long step = (64 * WIDTH - WIDTH) / coldRows;
        h.source.execute("CREATE TABLE public.items (id bigint PRIMARY KEY, v text)",
                "INSERT INTO public.items SELECT " + hotLower + " + i, repeat(md5(i::text), 4) FROM generate_series(0, " + (HOT_ROWS - 1) + ") i",
                // The cold keys step over the hot range, so exactly 70% of the rows are in the hot chunk.
                "INSERT INTO public.items SELECT k, repeat(md5(k::text), 4) FROM (SELECT CASE WHEN i * " + step + " >= " + hotLower
                        + " THEN i * " + step + " + " + WIDTH + " ELSE i * " + step + " END AS k FROM generate_series(0, "
                        + (coldRows - 1) + ") i) c");
        analyze();
        assertThat(h.source.queryForLong("SELECT count(*) FROM public.items")).isEqualTo(ROWS);
        assertThat(h.source.queryForLong("SELECT count(*) FROM public.items WHERE id >= " + hotLower + " AND id < " + (hotLower + WIDTH)))
                .isEqualTo(HOT_ROWS);
        h.target.execute("CREATE TABLE public.items (id bigint PRIMARY KEY, v text)");
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_skew", CHUNKS, "")
                .parallelWorkers(4));

        List<Sample> samples = new ArrayList<>();
        try (CampaignRuntime s = h.session(b)) {
            s.engine().open(s.preflight(b, null));
            CampaignLease lease = s.ledger().acquireLease(b.identity().runKey(), "driver", CampaignHarness.FAST.leaseTtl()).orElseThrow();
            CampaignHarness.stepUntil(s, lease, CampaignPhase.Prepared);
            List<ChunkRecord> chunks = s.ledger().chunks(b.identity().runKey(), 0, 64);
            assertThat(chunks.get(HOT_CHUNK).rowsEstimated()).as("the hot chunk's estimate")
                    .isBetween((long) (HOT_ROWS * 0.95), (long) (HOT_ROWS * 1.05));

            AtomicBoolean stop = new AtomicBoolean();
            CompletableFuture<Void> sampler = CompletableFuture.runAsync(() -> sample(b, lease, samples, stop));
            try {
                assertThat(h.runToSettled(b, s, lease).phase()).isEqualTo(CampaignPhase.HandoffCommitted);
            } finally {
                stop.set(true);
                sampler.get(10, TimeUnit.SECONDS);
            }
        }

        Sample done = samples.stream().filter(Sample::done).findFirst().orElseThrow();
        Sample at30 = samples.stream().filter(x -> !x.done() && x.etaSeconds() != null)
                .min(Comparator.comparingDouble(x -> Math.abs((double) x.rowsLoaded() / ROWS - 0.30))).orElseThrow();
        double actualLeft = (done.nanos() - at30.nanos()) / 1e9;
        double loading = (done.nanos() - samples.get(0).nanos()) / 1e9;
        System.out.printf("skewed ETA: at %.1f%% of rows loaded ETA %d s (average formula: %s s), actually left %.2f s;"
                        + " loading %.2f s, %d samples; basis: %s%n", 100.0 * at30.rowsLoaded() / ROWS, at30.etaSeconds(),
                at30.averageEtaSeconds(), actualLeft, loading, samples.size(), at30.basis());

        samples.forEach(x -> System.out.printf("  t=%.2f rows=%d eta=%s avg=%s%n", (x.nanos() - samples.get(0).nanos()) / 1e9,
                x.rowsLoaded(), x.etaSeconds(), x.averageEtaSeconds()));
        assertThat(at30.basis()).startsWith("estimated rows remaining (pg_stats histogram");
        assertThat(at30.rowsLoaded()).as("a sample near 30%% of rows").isBetween((long) (ROWS * 0.2), (long) (ROWS * 0.4));
        assertThat(actualLeft).as("time left after the sample, seconds").isGreaterThan(1.0);
        // The ETA is whole seconds rounded up (Eta.of): the estimate behind an ETA of n lies in (n - 1, n]. On a fast
        // day the time left is about a second, where that rounding alone is a factor of two, so the factor applies to
        // the estimate the ETA stands for: its interval must meet [left / 2, left * 2].
        assertThat(at30.etaSeconds() - 1.0).as("ETA at ~30%% (whole seconds, rounded up) vs %.2f s actually left", actualLeft)
                .isLessThan(actualLeft * 2);
        assertThat((double) at30.etaSeconds()).as("ETA at ~30%% vs %.2f s actually left", actualLeft)
                .isGreaterThanOrEqualTo(actualLeft / 2);
    }

    /**
     * Statistics as a DBA leaves them after loading a table. The inserts' modification counts reach the statistics
     * system asynchronously and may land after the ANALYZE, which would (rightly) make the estimate call them stale.
     */
    private void analyze() throws Exception {
        for (int i = 0; i < 50; i++) {
            h.source.execute("ANALYZE public.items");
            if (h.source.queryForLong("SELECT n_mod_since_analyze FROM pg_stat_user_tables WHERE relname = 'items'") == 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("n_mod_since_analyze never settled at 0");
    }

    /**
     * The status as {@code backfill status} projects it, from its own connection, until every chunk is committed.
     * It also renews the driver's campaign lease, as a real driver's renewal thread does: the load outlasts the
     * harness's 5 s lease.
     */
    private void sample(CampaignBlueprint b, CampaignLease lease, List<Sample> samples, AtomicBoolean stop) {
        try (Connection c = h.target.connect()) {
            LedgerStore ledger = PostgresLedgerConnection.store(c, b.definition().spec().getState().getSchema());
            String runKey = b.identity().runKey();
            while (!stop.get()) {
                ledger.renewLease(lease, CampaignHarness.FAST.leaseTtl());
                Optional<CampaignRecord> campaign = ledger.findByRunKey(runKey);
                ChunkCounts counts = ledger.counts(runKey, 2);
                long now = System.nanoTime();
                if (campaign.isPresent() && counts.secondsSinceFirstStart() > 0) {
                    BackfillCampaignStatus status = CampaignStatusProjector.project(b.definition().spec(), b.artifacts(),
                            campaign.get(), counts, Optional.empty(), Optional.empty(), Optional.empty());
                    // Committed chunks' average, the formula before source estimates, on the same counters.
                    BackfillCampaignStatus average = CampaignStatusProjector.project(b.definition().spec(), b.artifacts(),
                            withoutEstimate(campaign.get()), counts, Optional.empty(), Optional.empty(), Optional.empty());
                    if (counts.allCommitted()) {
                        if (samples.stream().noneMatch(Sample::done)) {
                            samples.add(new Sample(now, counts.rowsLoaded(), 0L, null, 0L, true));
                        }
                        Thread.sleep(50);
                        continue;
                    }
                    samples.add(new Sample(now, counts.rowsLoaded(), status.getProgress().getEtaSeconds(),
                            status.getProgress().getEtaBasis(), average.getProgress().getEtaSeconds(), false));
                }
                Thread.sleep(50);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static CampaignRecord withoutEstimate(CampaignRecord r) {
        return new CampaignRecord(r.runKey(), r.backfillId(), r.planDigest(), r.configDigest(), r.specJson(), r.phase(),
                PhaseDetail.parse(r.detail()).withRowsEstimateBasis(null).json(), r.anchorXmin(), r.sourceShapeDigest(),
                r.targetShapeDigest(), r.liveBaseline(), r.rowEncoding(), r.leaseOwner(), r.leaseEpoch(), r.leaseExpires(),
                r.stopRequested(), r.createdAt(), r.updatedAt());
    }
}

package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.doctor.DoctorReport;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.InMemoryLedger;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code spec.reconcile}'s passes between publication and the handoff (issue 38, ADR 0057), over the in-memory
 * ledger and a pass ledger kept in memory: the engine runs one pass a step while the schedule asks, the handoff
 * carries the last pass's anchor, and a driver that died anywhere does the same again without a second pass.
 */
class ReconcileBeforeHandoffTest {
    private static final Duration TTL = Duration.ofSeconds(30);

    private InMemoryLedger memory;
    private LedgerStore ledger;
    private FakeTarget target;
    private Passes passes;

    /** The pass ledger as the wiring keeps it, in memory: each run opens or finishes the last pass. */
    private static final class Passes implements HandoffPasses {
        final List<Pass> held = new ArrayList<>();
        /** What each pass changes (upserted rows), in order; a pass given -1 dies before it finishes. */
        final Deque<Long> changes = new java.util.ArrayDeque<>();
        int runs;

        @Override
        public List<Pass> passes(String runKey) {
            return List.copyOf(held);
        }

        @Override
        public Pass run(CampaignLease lease) {
            runs++;
            if (!held.isEmpty() && !held.get(held.size() - 1).finished()) {
                // Resumed: the interrupted pass keeps its number and anchor, and finishes.
                Pass open = held.remove(held.size() - 1);
                Pass done = new Pass(open.pass(), open.anchor(), open.startedAt(), true, changes.removeFirst(), 0, 0);
                held.add(done);
                return done;
            }
            int number = held.size() + 1;
            long changed = changes.removeFirst();
            String anchor = String.valueOf(2000 + number);
            if (changed < 0) {
                held.add(new Pass(number, anchor, Instant.now(), false, 0, 0, 0));
                throw new IllegalStateException("driver killed mid-pass");
            }
            Pass done = new Pass(number, anchor, Instant.now(), true, changed, 1, 0);
            held.add(done);
            return done;
        }
    }

    @BeforeEach
    void setUp() {
        memory = new InMemoryLedger();
        ledger = memory.connect();
        target = new FakeTarget(memory);
        passes = new Passes();
    }

    private static CampaignBlueprint blueprint(String reconcile) {
        return CampaignBlueprint.of(CampaignReader.parse(CampaignYaml.campaign("t_v1").name("t").secrets("src", "tgt")
                .table("t").chunk("{column: id, kind: integer, buckets: 4, lowerBound: 0, upperBound: 400}")
                .parallelWorkers(2).shadowSwap().extraSpec(reconcile).render()));
    }

    private CampaignEngine engine(CampaignBlueprint b) {
        return new CampaignEngine(b, ledger, target.publisher(), target.source()).reconcilingWith(passes);
    }

    /** Opens, loads and publishes: the ledger is Published when this returns. */
    private CampaignLease published(CampaignEngine engine) {
        engine.open(Preflight.checkedBy(() -> new DoctorReport(List.of(Finding.ok("all.ok", "fine")))));
        CampaignLease lease = ledger.acquireLease(engine.runKey(), "driver", TTL).orElseThrow();
        for (int i = 0; i < 10 && engine.step(lease).phase() != CampaignPhase.Loading; i++) {
            // to Loading
        }
        for (ChunkRecord seen : ledger.claimable(engine.runKey(), 2, false, 100)) {
            ChunkClaim claim = ledger.claim(engine.runKey(), seen, "lane", TTL).orElseThrow();
            memory.writeChunkReceipt(engine.runKey(), claim.chunkId(), 100);
            assertThat(ledger.commitFromReceipt(claim)).isTrue();
            target.shadowRows += 100;
        }
        for (int i = 0; i < 10 && ledger.findByRunKey(engine.runKey()).orElseThrow().phase() != CampaignPhase.Published; i++) {
            engine.step(lease);
        }
        assertThat(ledger.findByRunKey(engine.runKey()).orElseThrow().phase()).isEqualTo(CampaignPhase.Published);
        return lease;
    }

    private List<StepResult> stepToHandoff(CampaignEngine engine, CampaignLease lease) {
        List<StepResult> steps = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            StepResult r = engine.step(lease);
            steps.add(r);
            if (r.phase() == CampaignPhase.HandoffCommitted) {
                return steps;
            }
        }
        throw new AssertionError("no handoff after 20 steps: " + steps);
    }

    @Test
    void reconcileOnceRunsOnePassAndTheHandoffCarriesItsAnchor() {
        CampaignEngine engine = engine(blueprint("  reconcile: {mode: once}\n"));
        CampaignLease lease = published(engine);
        passes.changes.add(42L);

        List<StepResult> steps = stepToHandoff(engine, lease);

        assertThat(steps).extracting(StepResult::phase).containsExactly(CampaignPhase.Reconciling, CampaignPhase.HandoffCommitted);
        assertThat(steps.get(0).message()).contains("pass 1", "2001", "42 upserted");
        assertThat(steps.get(1).message()).contains("2001", "reconciliation pass 1");
        assertThat(ledger.handoffReceipt(engine.runKey()).orElseThrow().anchorXmin()).isEqualTo("2001");
        StepResult done = engine.step(lease);
        assertThat(done.next()).isEqualTo(new NextAction.StartIncrementalSync("2001"));
        assertThat(passes.runs).as("a finished pass is not run again").isEqualTo(1);
    }

    @Test
    void untilRunsPassesUntilOneChangedFewEnoughRows() {
        CampaignEngine engine = engine(blueprint("  reconcile: {mode: until, maxChangedRows: 5, maxPasses: 10}\n"));
        CampaignLease lease = published(engine);
        // upserted + 1 deleted each: 51, 21, 4 -> the third is at most 5
        passes.changes.addAll(List.of(50L, 20L, 3L, 0L));

        stepToHandoff(engine, lease);

        assertThat(passes.runs).isEqualTo(3);
        assertThat(ledger.handoffReceipt(engine.runKey()).orElseThrow().anchorXmin()).isEqualTo("2003");
    }

    @Test
    void untilStopsAtMaxPassesWhateverThePassesChanged() {
        CampaignEngine engine = engine(blueprint("  reconcile: {mode: until, maxChangedRows: 0, maxPasses: 2}\n"));
        CampaignLease lease = published(engine);
        passes.changes.addAll(List.of(50L, 50L, 50L));

        stepToHandoff(engine, lease);

        assertThat(passes.runs).isEqualTo(2);
        assertThat(ledger.handoffReceipt(engine.runKey()).orElseThrow().anchorXmin()).isEqualTo("2002");
    }

    @Test
    void aDriverKilledMidPassFinishesThatPassOnResumeAndRunsNoOther() {
        CampaignBlueprint b = blueprint("  reconcile: {mode: once}\n");
        CampaignEngine first = engine(b);
        CampaignLease lease = published(first);
        passes.changes.addAll(List.of(-1L, 7L));

        assertThatThrownBy(() -> first.step(lease)).hasMessageContaining("killed mid-pass");
        assertThat(ledger.handoffReceipt(first.runKey())).isEmpty();

        // The next driver (a resume, the operator's next reconcile): a new engine over the same ledgers.
        CampaignEngine second = engine(b);
        stepToHandoff(second, lease);

        assertThat(passes.held).hasSize(1);
        assertThat(passes.held.get(0).finished()).isTrue();
        assertThat(ledger.handoffReceipt(second.runKey()).orElseThrow().anchorXmin()).isEqualTo("2001");
    }

    @Test
    void withReconcileOffTheHandoffCarriesTheLoadsAnchorAndNoPassRuns() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = published(engine);

        assertThat(stepToHandoff(engine, lease)).extracting(StepResult::phase).containsExactly(CampaignPhase.HandoffCommitted);
        assertThat(passes.runs).isZero();
        assertThat(ledger.handoffReceipt(engine.runKey()).orElseThrow().anchorXmin()).isEqualTo("1000");
    }

    @Test
    void whileItsPassesRunAPublishedCampaignsStatusSaysReconciling() {
        CampaignBlueprint b = blueprint("  reconcile: {mode: once}\n");
        CampaignEngine engine = engine(b);
        CampaignLease lease = published(engine);
        var spec = b.definition().spec();

        var record = ledger.findByRunKey(engine.runKey()).orElseThrow();
        assertThat(CampaignStatusProjector.project(spec, b.artifacts(), record, ledger.counts(engine.runKey(), 2),
                ledger.publicationReceipt(engine.runKey()), ledger.handoffReceipt(engine.runKey()),
                ledger.rollbackReceipt(engine.runKey())).getPhase()).isEqualTo(CampaignPhase.Reconciling);

        passes.changes.add(1L);
        stepToHandoff(engine, lease);
        var handedOff = CampaignStatusProjector.project(spec, b.artifacts(), ledger.findByRunKey(engine.runKey()).orElseThrow(),
                ledger.counts(engine.runKey(), 2), ledger.publicationReceipt(engine.runKey()),
                ledger.handoffReceipt(engine.runKey()), ledger.rollbackReceipt(engine.runKey()));
        assertThat(handedOff.getPhase()).isEqualTo(CampaignPhase.HandoffCommitted);
        assertThat(handedOff.getHandoff().getAnchorXmin()).isEqualTo("2001");
        assertThat(handedOff.getRecommendedAction()).contains("2001");
    }
}

package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.doctor.DoctorReport;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.InMemoryLedger;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.source.AnchorCheck;
import io.dpone.backfill.core.source.SourceCoverage;
import io.dpone.backfill.core.publish.ColumnShape;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The campaign state machine over an in-memory ledger and hand-written source and target fakes: every phase and
 * every outcome in milliseconds, with no database. Lanes are simulated through the ledger port exactly as a lane
 * commits: claim, receipt, commit from the receipt.
 */
class CampaignEngineTest {
    private static final Duration TTL = Duration.ofSeconds(30);
    private static final long ROWS_PER_CHUNK = 100;

    private InMemoryLedger memory;
    private LedgerStore ledger;
    private FakeTarget target;
    private final AtomicInteger doctorRuns = new AtomicInteger();

    @BeforeEach
    void setUp() {
        memory = new InMemoryLedger();
        ledger = memory.connect();
        target = new FakeTarget(memory);
    }

    private static CampaignBlueprint blueprint(String extra) {
        return blueprint("t_v1", extra);
    }

    private static CampaignBlueprint blueprint(String backfillId, String extra) {
        return CampaignBlueprint.of(CampaignReader.parse(CampaignYaml.campaign(backfillId).name("t").secrets("src", "tgt")
                .table("t").chunk("{column: id, kind: integer, buckets: 4, lowerBound: 0, upperBound: 400}")
                .parallelWorkers(2).maxChunkAttempts(2).shadowSwap().extraSpec(extra).render()));
    }

    private CampaignEngine engine(CampaignBlueprint b) {
        return new CampaignEngine(b, ledger, target.publisher(), target.source());
    }

    private Preflight passing() {
        return Preflight.checkedBy(() -> {
            doctorRuns.incrementAndGet();
            return new DoctorReport(List.of(Finding.ok("all.ok", "fine")));
        });
    }

    private CampaignLease openAndLease(CampaignEngine engine) {
        engine.open(passing());
        return ledger.acquireLease(engine.runKey(), "driver", TTL).orElseThrow();
    }

    /** Steps until the engine asks for lanes, settles, or reaches {@code phase}; returns every phase passed. */
    private List<CampaignPhase> stepUntil(CampaignEngine engine, CampaignLease lease, CampaignPhase phase) {
        List<CampaignPhase> seen = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            StepResult r = engine.step(lease);
            seen.add(r.phase());
            if (r.phase() == phase || r.settled()) {
                return seen;
            }
        }
        throw new AssertionError("no " + phase + " after 20 steps: " + seen);
    }

    /** A lane's work on every claimable chunk: claim, receipt, commit from the receipt; the shadow grows. */
    private void lanesCommitEverything(String runKey) {
        for (ChunkRecord seen : ledger.claimable(runKey, 2, false, 100)) {
            ChunkClaim claim = ledger.claim(runKey, seen, "lane", TTL).orElseThrow();
            memory.writeChunkReceipt(runKey, claim.chunkId(), ROWS_PER_CHUNK);
            assertThat(ledger.commitFromReceipt(claim)).isTrue();
            target.shadowRows += ROWS_PER_CHUNK;
        }
    }

    private void laneFailsChunk(String runKey, int chunkId, int times) {
        for (int i = 0; i < times; i++) {
            ChunkRecord seen = ledger.chunks(runKey, chunkId, 1).get(0);
            ChunkClaim claim = ledger.claim(runKey, seen, "lane", TTL).orElseThrow();
            assertThat(ledger.failChunk(claim, "boom")).isTrue();
        }
    }

    private CampaignPhase phase(CampaignEngine engine) {
        return ledger.findByRunKey(engine.runKey()).orElseThrow().phase();
    }

    @Test
    void aCampaignWalksEveryPhaseInOrderAndPublishesOnce() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);

        List<CampaignPhase> toLoading = stepUntil(engine, lease, CampaignPhase.Loading);
        StepResult loading = engine.step(lease);
        assertThat(loading.wantsLanes()).isTrue();
        assertThat(loading.actions()).containsExactly(new EngineAction.RunLanes(2));
        lanesCommitEverything(engine.runKey());
        List<CampaignPhase> rest = stepUntil(engine, lease, CampaignPhase.HandoffCommitted);

        assertThat(toLoading).containsExactly(CampaignPhase.Prepared, CampaignPhase.Loading);
        assertThat(rest).containsExactly(CampaignPhase.Validating, CampaignPhase.Publishing, CampaignPhase.Published,
                CampaignPhase.HandoffCommitted);
        assertThat(target.calls).containsSubsequence("captureAnchor", "prepareShadow", "buildDeferredIndexes", "validate", "publish");
        assertThat(target.calls.stream().filter("publish"::equals)).hasSize(1);
        assertThat(ledger.publicationReceipt(engine.runKey()).orElseThrow().rows()).isEqualTo(400);
        assertThat(ledger.handoffReceipt(engine.runKey()).orElseThrow().anchorXmin()).isEqualTo("1000");
        StepResult done = engine.step(lease);
        assertThat(done.settled()).isTrue();
        assertThat(done.stopsLanes()).isTrue();
        assertThat(done.next()).isEqualTo(new NextAction.StartIncrementalSync("1000"));
    }

    @Test
    void theEngineFiresItsCampaignFaultPointsWhereTheirStepsSayForEveryDriver() {
        List<String> fired = new ArrayList<>();
        FaultPoints recording = new FaultPoints() {
            @Override
            public void reached(FaultPoint point, int chunkId) {
                fired.add(point.wireName() + ":" + chunkId + " after " + target.calls);
            }

            @Override
            public boolean armed(FaultPoint point) {
                return true;
            }
        };
        CampaignEngine engine = new CampaignEngine(blueprint(""), ledger, target.publisher(), target.source(), recording);
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Prepared);
        assertThat(fired).as("in-prepare: shadow prepared, the move to Prepared not yet recorded").hasSize(1);
        assertThat(fired.get(0)).startsWith("in-prepare:-1 after").contains("prepareShadow");
        fired.clear();
        stepUntil(engine, lease, CampaignPhase.Loading);
        lanesCommitEverything(engine.runKey());
        stepUntil(engine, lease, CampaignPhase.Publishing);
        assertThat(fired).isEmpty();

        engine.step(lease);

        assertThat(fired).hasSize(2);
        assertThat(fired.get(0)).startsWith("before-publish:-1 after").doesNotContain("publish]");
        assertThat(fired.get(1)).as("after-publish: the swap committed, Published not yet recorded")
                .startsWith("after-publish:-1 after").endsWith("publish]");
        assertThat(ledger.findByRunKey(engine.runKey()).orElseThrow().phase()).isEqualTo(CampaignPhase.Published);
        assertThat(target.calls).endsWith("publish");
    }

    @Test
    void preflightRefusesBeforeTheLedgerExistsAndIsNotRunAgainOncePrepared() {
        CampaignEngine engine = engine(blueprint(""));
        Preflight failing = Preflight.checkedBy(() -> new DoctorReport(List.of(Finding.error("source.chunk-column.nullable", "NULL keys", "fix"))));

        assertThatThrownBy(() -> engine.open(failing)).isInstanceOf(PreflightRefusedException.class)
                .hasMessageContaining("source.chunk-column.nullable");
        assertThat(ledger.peek(engine.runKey())).isEmpty();
        assertThat(memory.runKeys()).isEmpty();

        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Prepared);
        CampaignEngine restarted = engine(blueprint(""));
        restarted.open(passing());
        assertThat(doctorRuns).as("a prepared campaign is not checked again").hasValue(1);
        assertThat(PhaseDetail.parse(ledger.findByRunKey(engine.runKey()).orElseThrow().detail()).preflightResult()).isEqualTo("passed");
    }

    @Test
    void aPlannedCampaignCannotBePreparedByAnEngineThatDidNotOpenIt() {
        CampaignEngine opener = engine(blueprint(""));
        CampaignLease lease = openAndLease(opener);
        CampaignEngine other = engine(blueprint(""));

        assertThatThrownBy(() -> other.step(lease)).isInstanceOf(IllegalStateException.class).hasMessageContaining("pre-flight");
        assertThat(phase(opener)).isEqualTo(CampaignPhase.Planned);
    }

    @Test
    void aStaleLeaseIsFencedAtTheFirstWrite() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        CampaignLease stale = new CampaignLease(lease.runKey(), lease.owner(), lease.epoch() - 1);

        assertThatThrownBy(() -> engine.step(stale)).isInstanceOf(LeaseLostException.class);
        assertThat(phase(engine)).isEqualTo(CampaignPhase.Planned);
    }

    private static CampaignBlueprint physicalBlueprint() {
        return CampaignBlueprint.of(CampaignReader.parse(CampaignYaml.campaign("t_phys").name("t").secrets("src", "tgt")
                .table("t").chunk(CampaignYaml.physicalChunks(4)).parallelWorkers(2).maxChunkAttempts(2).shadowSwap().render()));
    }

    @Test
    void physicalPreparationMeasuresTheHeapAfterTheAnchorAndRecordsItWithTheMoveToPrepared() {
        target.heap = new HeapExtent(1234, "16384/16999");
        CampaignEngine engine = engine(physicalBlueprint());
        CampaignLease lease = openAndLease(engine);
        assertThat(PhaseDetail.parse(ledger.findByRunKey(engine.runKey()).orElseThrow().detail()).heapExtent()).isNull();

        StepResult r = engine.step(lease);

        assertThat(r.phase()).isEqualTo(CampaignPhase.Prepared);
        assertThat(target.calls).containsSubsequence("captureAnchor", "heapExtent", "prepareShadow");
        PhaseDetail detail = PhaseDetail.parse(ledger.findByRunKey(engine.runKey()).orElseThrow().detail());
        assertThat(detail.heapExtent()).isEqualTo(new HeapExtent(1234, "16384/16999"));
        assertThat(ChunkPlanner.resolve(physicalBlueprint().definition().spec().getChunk(), detail.heapExtent()))
                .isEqualTo(ChunkPlanner.physical(4, 1234));
    }

    /** Issue 41: the reads of the resolved plan, predicted at preparation, are in the status from then on. */
    @Test
    void preparationRecordsThePredictedSourceReadsOfTheResolvedPlanForTheStatus() {
        target.heap = new HeapExtent(1234, "16384/16999");
        target.readCost = new io.dpone.backfill.core.source.SourceReadCost(1234, 1240, 4, 310, "block ranges read once");
        CampaignEngine engine = engine(physicalBlueprint());
        CampaignLease lease = openAndLease(engine);

        engine.step(lease);

        assertThat(target.pricedPlan).isEqualTo(ChunkPlanner.physical(4, 1234));
        var status = CampaignStatusProjector.project(physicalBlueprint().definition().spec(), physicalBlueprint().artifacts(),
                ledger.findByRunKey(engine.runKey()).orElseThrow(), ledger.counts(engine.runKey(), 2),
                ledger.publicationReceipt(engine.runKey()), ledger.handoffReceipt(engine.runKey()),
                ledger.rollbackReceipt(engine.runKey()));
        assertThat(status.getSourceReads()).extracting(s -> s.getFactor(), s -> s.getPagesVisited(), s -> s.getTablePages(),
                s -> s.getBasis()).containsExactly(1.0, 1240L, 1234L, "block ranges read once");
    }

    @Test
    void aPredictionThatFailsIsRecordedAsUnknownAndPreparationGoesOn() {
        target.readCost = null;
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);

        assertThat(engine.step(lease).phase()).isEqualTo(CampaignPhase.Prepared);

        io.dpone.backfill.core.source.SourceReadCost recorded =
                PhaseDetail.parse(ledger.findByRunKey(engine.runKey()).orElseThrow().detail()).readCost();
        assertThat(recorded.known()).isFalse();
        assertThat(recorded.reason()).startsWith("not estimated: the prediction failed");
    }

    @Test
    void physicalChunksCoverEveryRowByConstructionAtValidation() {
        target.coverage = SourceCoverage.counted(5, "rows with a NULL chunk column");
        CampaignEngine engine = engine(physicalBlueprint());
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        engine.step(lease);
        lanesCommitEverything(engine.runKey());

        assertThat(stepUntil(engine, lease, CampaignPhase.HandoffCommitted)).contains(CampaignPhase.Published);
        assertThat(PhaseDetail.parse(ledger.findByRunKey(engine.runKey()).orElseThrow().detail()).coverage())
                .isEqualTo(SourceCoverage.blockRanges());
    }

    @Test
    void aSourceThatCannotBeReadInBlockRangesBlocksPreparationBeforeAnyShadowIsCreated() {
        target.heapRefusal = "the source relation has relkind 'p', not a plain table ('r')";
        CampaignEngine engine = engine(physicalBlueprint());
        StepResult r = engine.step(openAndLease(engine));

        assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
        assertThat(r.blockReason()).isEqualTo(BlockReason.PHYSICAL_UNSUPPORTED);
        assertThat(r.message()).contains("relkind 'p'");
        assertThat(target.calls).doesNotContain("prepareShadow");
    }

    @Test
    void aForeignShadowBlocksPreparationAndTheLiveTableIsUntouched() {
        target.foreignShadowOwner = "rk-someone-else";
        CampaignEngine engine = engine(blueprint(""));
        StepResult r = engine.step(openAndLease(engine));

        assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
        assertThat(r.message()).contains("rk-someone-else");
        assertThat(r.blockReason()).isEqualTo(BlockReason.ARTIFACT_OWNERSHIP);
        assertThat(r.settled()).isTrue();
        assertThat(r.next()).isEqualTo(new NextAction.NewCampaign("public.t__bf_shadow"));
    }

    @Test
    void aRequiredTargetColumnMissingInTheSourceBlocksButGeneratedAndDefaultedOnesDoNot() {
        target.liveShape = new TableShape(List.of(new ColumnShape("id", "bigint", false), new ColumnShape("v", "text", true),
                new ColumnShape("total", "numeric", true, "(id * 2)", true, false),
                new ColumnShape("at", "timestamptz", false, "now()", false, false)));
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        assertThat(engine.step(lease).phase()).isEqualTo(CampaignPhase.Prepared);

        target.liveShape = new TableShape(List.of(new ColumnShape("id", "bigint", false), new ColumnShape("must", "text", false)));
        CampaignEngine second = engine(blueprint("t_v2", ""));
        StepResult blocked = second.step(openAndLease(second));
        assertThat(blocked.phase()).isEqualTo(CampaignPhase.Blocked);
        assertThat(blocked.message()).contains("[must]");
        assertThat(blocked.blockReason()).isEqualTo(BlockReason.TARGET_COLUMNS_MISSING);
    }

    @Test
    void aColumnAddedToTheLiveTargetWhileLoadingBlocksNamingIt() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        List<ColumnShape> columns = new ArrayList<>(FakeTarget.SHAPE.columns());
        columns.add(new ColumnShape("audit_note", "text", true, "'x'::text", false, false));
        target.liveShape = new TableShape(columns, FakeTarget.SHAPE.constraints());

        StepResult r = engine.step(lease);

        assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
        assertThat(r.message()).contains("column audit_note was added");
        assertThat(r.blockReason()).isEqualTo(BlockReason.SCHEMA_DRIFT);
        assertThat(r.stopsLanes()).isTrue();
        assertThat(ledger.findByRunKey(engine.runKey()).orElseThrow().stopRequested()).isTrue();
    }

    @Test
    void aSourceThatChangedShapeWhileLoadingBlocksWithTheUncoveredCount() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        target.sourceShape = new TableShape(List.of(new ColumnShape("id", "bigint", true), new ColumnShape("v", "text", true)));
        target.coverage = SourceCoverage.counted(1, "rows with a NULL chunk column id counted in the source");

        StepResult r = engine.step(lease);

        assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
        assertThat(r.message()).contains("changed shape").contains("1 source row(s) belong to no chunk");
        assertThat(r.blockReason()).isEqualTo(BlockReason.SCHEMA_DRIFT);
    }

    @Test
    void validationBlocksOnAMismatchOnNullOrDuplicateKeysAndOnUncoveredSourceRows() {
        for (Runnable fault : List.<Runnable>of(() -> target.shadowRows -= 1, () -> target.nullKeys = 1,
                () -> target.duplicateKeys = 2, () -> target.coverage = SourceCoverage.counted(3, "counted"))) {
            setUp();
            CampaignEngine engine = engine(blueprint(""));
            CampaignLease lease = openAndLease(engine);
            stepUntil(engine, lease, CampaignPhase.Loading);
            lanesCommitEverything(engine.runKey());
            fault.run();

            List<CampaignPhase> phases = stepUntil(engine, lease, CampaignPhase.Blocked);

            assertThat(phases).containsExactly(CampaignPhase.Validating, CampaignPhase.Blocked);
            assertThat(engine.step(lease).blockReason()).isEqualTo(BlockReason.VALIDATION_FAILED);
            assertThat(target.calls).doesNotContain("publish");
            assertThat(ledger.publicationReceipt(engine.runKey())).isEmpty();
        }
    }

    @Test
    void anIndexBuildThatFailsOnBadKeysBlocksWithValidationsCountsAndNamesTheBuildsError() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        lanesCommitEverything(engine.runKey());
        target.duplicateKeys = 2;

        assertThat(stepUntil(engine, lease, CampaignPhase.Blocked)).containsExactly(CampaignPhase.Validating, CampaignPhase.Blocked);

        assertThat(ledger.findByRunKey(engine.runKey()).orElseThrow().detail()).contains("2 duplicate keys")
                .contains("building the shadow's indexes failed on them: could not create unique index");
        assertThat(target.calls).containsSubsequence("buildDeferredIndexes", "validate").doesNotContain("publish");
    }

    @Test
    void anIndexBuildThatFailsWhileValidationPassesIsTheStepsErrorAndNothingMoves() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        lanesCommitEverything(engine.runKey());
        target.indexBuildFailure = new IllegalStateException("out of disk space building the index");
        stepUntil(engine, lease, CampaignPhase.Validating);

        assertThatThrownBy(() -> engine.step(lease)).hasMessageContaining("out of disk space");

        assertThat(ledger.findByRunKey(engine.runKey()).orElseThrow().phase()).isEqualTo(CampaignPhase.Validating);
        target.indexBuildFailure = null;
        assertThat(stepUntil(engine, lease, CampaignPhase.HandoffCommitted)).contains(CampaignPhase.Publishing);
    }

    /** A shadow_swap campaign whose swap may run from 01:00 to 03:00 Berlin time. */
    private static CampaignBlueprint windowed() {
        return CampaignBlueprint.of(CampaignReader.parse(CampaignYaml.campaign("w_v1").name("t").secrets("src", "tgt")
                .table("t").chunk("{column: id, kind: integer, buckets: 4, lowerBound: 0, upperBound: 400}")
                .parallelWorkers(2).extraSpec("  publication: {mode: shadow_swap, window: {from: '01:00', to: '03:00',"
                        + " timeZone: Europe/Berlin}}\n").render()));
    }

    /** A clock the test moves. */
    private static final class MovableClock extends Clock {
        Instant now;

        MovableClock(String instant) {
            now = Instant.parse(instant);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void aValidatedCampaignWaitsForItsPublicationWindowThenSwapsOnce() {
        MovableClock clock = new MovableClock("2026-12-04T12:00:00Z");
        CampaignEngine engine = engine(windowed()).readingTimeFrom(clock);
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        lanesCommitEverything(engine.runKey());
        stepUntil(engine, lease, CampaignPhase.Publishing);

        StepResult waiting = engine.step(lease);
        assertThat(waiting.phase()).isEqualTo(CampaignPhase.Publishing);
        assertThat(waiting.settled()).isFalse();
        assertThat(waiting.next()).isEqualTo(new NextAction.AwaitWindow("01:00-03:00 Europe/Berlin", "2026-12-05T01:00+01:00"));
        assertThat(waiting.message()).contains("waits for the publication window 01:00-03:00 Europe/Berlin")
                .contains("opens at 2026-12-05T01:00+01:00");
        assertThat(waiting.requeueAfter()).isEqualTo(Duration.ofMinutes(1));
        assertThat(target.calls).doesNotContain("publish");
        assertThat(ledger.publicationReceipt(engine.runKey())).isEmpty();

        clock.now = Instant.parse("2026-12-05T00:30:00Z"); // 01:30 in Berlin
        assertThat(stepUntil(engine, lease, CampaignPhase.HandoffCommitted)).contains(CampaignPhase.Published);
        assertThat(target.calls.stream().filter("publish"::equals)).hasSize(1);
    }

    @Test
    void aManualCampaignWaitsForApprovalThenSwapsOnceAndALiveWriteMeanwhileStillBlocks() {
        CampaignBlueprint manual = CampaignBlueprint.of(CampaignReader.parse(CampaignYaml.campaign("m_v1").name("t").secrets("src", "tgt")
                .table("t").chunk("{column: id, kind: integer, buckets: 4, lowerBound: 0, upperBound: 400}")
                .parallelWorkers(2).extraSpec("  publication: {mode: shadow_swap, approval: manual}\n").render()));
        CampaignEngine engine = engine(manual);
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        lanesCommitEverything(engine.runKey());
        stepUntil(engine, lease, CampaignPhase.Publishing);

        for (int i = 0; i < 3; i++) {
            StepResult waiting = engine.step(lease);
            assertThat(waiting.phase()).isEqualTo(CampaignPhase.Publishing);
            assertThat(waiting.next()).isEqualTo(new NextAction.AwaitApproval());
            assertThat(waiting.message()).contains("waits for a person's approval");
        }
        assertThat(target.calls).doesNotContain("publish");

        assertThat(ledger.approvePublication(engine.runKey(), "dba@example").orElseThrow().approvedBy()).isEqualTo("dba@example");
        assertThat(ledger.approvePublication(engine.runKey(), "someone else").orElseThrow().approvedBy())
                .as("the first approval stands").isEqualTo("dba@example");
        target.liveContent = new TableFingerprint(1, "app-row");
        assertThat(stepUntil(engine, lease, CampaignPhase.Blocked)).endsWith(CampaignPhase.Blocked);
        assertThat(ledger.publicationReceipt(engine.runKey())).as("approved, but the live table was written").isEmpty();
    }

    private static CampaignBlueprint member(String table) {
        return CampaignBlueprint.of(CampaignReader.parse(CampaignYaml.campaign(table + "_v1").name(table).secrets("src", "tgt")
                .table(table).chunk("{column: id, kind: integer, buckets: 4, lowerBound: 0, upperBound: 400}")
                .parallelWorkers(2).extraSpec("  publication: {mode: shadow_swap, group: {name: shop, members: [t, u]}}\n").render()));
    }

    private void commitEverything(FakeTarget into, String runKey) {
        for (ChunkRecord seen : ledger.claimable(runKey, 2, false, 100)) {
            ChunkClaim claim = ledger.claim(runKey, seen, "lane", TTL).orElseThrow();
            memory.writeChunkReceipt(runKey, claim.chunkId(), ROWS_PER_CHUNK);
            assertThat(ledger.commitFromReceipt(claim)).isTrue();
            into.shadowRows += ROWS_PER_CHUNK;
        }
    }

    /** Two members t and u of group shop, each on its own fake target, t validated; u opened, not loaded. */
    private record TwoMembers(FakeTarget second, CampaignEngine t, CampaignEngine u, CampaignLease tLease, CampaignLease uLease) {
    }

    private TwoMembers tValidated() {
        FakeTarget second = new FakeTarget(memory);
        CampaignEngine t = engine(member("t"));
        CampaignEngine u = new CampaignEngine(member("u"), ledger, second.publisher(), second.source());
        CampaignLease tLease = openAndLease(t);
        CampaignLease uLease = openAndLease(u);
        stepUntil(t, tLease, CampaignPhase.Loading);
        commitEverything(target, t.runKey());
        stepUntil(t, tLease, CampaignPhase.Publishing);
        return new TwoMembers(second, t, u, tLease, uLease);
    }

    @Test
    void groupMembersWaitForEachOtherAndTheLastToValidateSwapsThemAllOnce() {
        TwoMembers m = tValidated();
        FakeTarget second = m.second();
        CampaignEngine t = m.t();
        CampaignEngine u = m.u();
        CampaignLease tLease = m.tLease();
        CampaignLease uLease = m.uLease();
        assertThat(target.calls).as("t's key to u is validated at the group's swap").contains("buildDeferredIndexes deferring [u]");

        for (int i = 0; i < 2; i++) {
            StepResult waiting = t.step(tLease);
            assertThat(waiting.phase()).isEqualTo(CampaignPhase.Publishing);
            assertThat(waiting.next()).isEqualTo(new NextAction.AwaitGroup("shop", List.of("u (Planned)")));
            assertThat(waiting.message()).contains("publication group shop: 1 of 2 members ready; waiting for u (Planned)");
        }
        stepUntil(u, uLease, CampaignPhase.Loading);
        assertThat(t.step(tLease).next()).isEqualTo(new NextAction.AwaitGroup("shop", List.of("u (Loading)")));
        commitEverything(second, u.runKey());
        assertThat(stepUntil(u, uLease, CampaignPhase.HandoffCommitted)).contains(CampaignPhase.Published);
        assertThat(ledger.publicationReceipt(t.runKey())).as("u's swap published t with it").isPresent();

        assertThat(stepUntil(t, tLease, CampaignPhase.HandoffCommitted)).contains(CampaignPhase.Published);
        assertThat(target.calls.stream().filter("publishGroup"::equals)).as("t only replays the receipt").hasSize(1);
        assertThat(second.calls.stream().filter("publishGroup"::equals)).hasSize(1);
    }

    @Test
    void aGroupMemberWhoseLiveTableWasWrittenBlocksAndHoldsTheOthers() {
        TwoMembers m = tValidated();
        FakeTarget second = m.second();
        CampaignEngine t = m.t();
        CampaignEngine u = m.u();
        CampaignLease tLease = m.tLease();
        CampaignLease uLease = m.uLease();
        t.step(tLease);
        stepUntil(u, uLease, CampaignPhase.Loading);
        commitEverything(second, u.runKey());
        second.liveContent = new TableFingerprint(1, "app-row");

        assertThat(stepUntil(u, uLease, CampaignPhase.Blocked)).endsWith(CampaignPhase.Blocked);
        StepResult held = t.step(tLease);
        assertThat(held.phase()).isEqualTo(CampaignPhase.Publishing);
        assertThat(held.next()).isEqualTo(new NextAction.AwaitGroup("shop", List.of("u (Blocked)")));
        assertThat(ledger.publicationReceipt(t.runKey())).isEmpty();
        assertThat(ledger.publicationReceipt(u.runKey())).isEmpty();
    }

    @Test
    void anApprovedManualCampaignPublishes() {
        CampaignEngine engine = engine(CampaignBlueprint.of(CampaignReader.parse(CampaignYaml.campaign("m2_v1").name("t")
                .secrets("src", "tgt").table("t").chunk("{column: id, kind: integer, buckets: 4, lowerBound: 0, upperBound: 400}")
                .parallelWorkers(2).extraSpec("  publication: {mode: shadow_swap, approval: manual}\n").render())));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        lanesCommitEverything(engine.runKey());
        stepUntil(engine, lease, CampaignPhase.Publishing);
        assertThat(engine.step(lease).next()).isEqualTo(new NextAction.AwaitApproval());
        ledger.approvePublication(engine.runKey(), "dba@example");
        assertThat(stepUntil(engine, lease, CampaignPhase.HandoffCommitted)).contains(CampaignPhase.Published);
        assertThat(target.calls.stream().filter("publish"::equals)).hasSize(1);
    }

    @Test
    void aWriteToTheLiveTableWhileTheSwapWaitsForItsWindowStillBlocksIt() {
        MovableClock clock = new MovableClock("2026-12-04T12:00:00Z");
        CampaignEngine engine = engine(windowed()).readingTimeFrom(clock);
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        lanesCommitEverything(engine.runKey());
        stepUntil(engine, lease, CampaignPhase.Publishing);
        assertThat(engine.step(lease).next()).isInstanceOf(NextAction.AwaitWindow.class);

        target.liveContent = new TableFingerprint(1, "app-row");
        clock.now = Instant.parse("2026-12-05T00:30:00Z");

        assertThat(stepUntil(engine, lease, CampaignPhase.Blocked)).endsWith(CampaignPhase.Blocked);
        assertThat(engine.step(lease).blockReason()).isEqualTo(BlockReason.LIVE_TARGET_WRITTEN);
        assertThat(ledger.publicationReceipt(engine.runKey())).isEmpty();
    }

    @Test
    void writesToTheLiveTargetAfterPreparationBlockPublicationAndNoReceiptIsWritten() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        lanesCommitEverything(engine.runKey());
        target.liveContent = new TableFingerprint(1, "app-row");

        List<CampaignPhase> phases = stepUntil(engine, lease, CampaignPhase.Blocked);

        assertThat(phases).containsExactly(CampaignPhase.Validating, CampaignPhase.Publishing, CampaignPhase.Blocked);
        assertThat(ledger.findByRunKey(engine.runKey()).orElseThrow().detail()).contains("written after preparation");
        assertThat(engine.step(lease).blockReason()).isEqualTo(BlockReason.LIVE_TARGET_WRITTEN);
        assertThat(ledger.publicationReceipt(engine.runKey())).isEmpty();
    }

    @Test
    void aPublicationReplayFindsTheReceiptAndMovesOnWithoutASecondSwap() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        lanesCommitEverything(engine.runKey());
        stepUntil(engine, lease, CampaignPhase.Publishing);
        // The swap committed, then the driver died before moving the phase: the receipt exists, the phase does not.
        target.publisher().publish(lease, blueprint("").artifacts(), "t", 400,
                io.dpone.backfill.core.publish.LiveTargetBaseline.parse(ledger.findByRunKey(engine.runKey()).orElseThrow().liveBaseline()),
                new TableFingerprint(400, "shadow-400"));
        String receipt = ledger.publicationReceipt(engine.runKey()).orElseThrow().receiptId();
        target.liveContent = new TableFingerprint(400, "the published table");

        assertThat(engine.step(lease).phase()).isEqualTo(CampaignPhase.Published);
        assertThat(ledger.publicationReceipt(engine.runKey()).orElseThrow().receiptId()).isEqualTo(receipt);
    }

    @Test
    void anUnusableAnchorBlocksTheHandoffAfterPublicationWithoutAReceipt() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        lanesCommitEverything(engine.runKey());
        stepUntil(engine, lease, CampaignPhase.Published);
        target.anchor = AnchorCheck.unusable("too old");

        StepResult blocked = engine.step(lease);
        assertThat(blocked.phase()).isEqualTo(CampaignPhase.Blocked);
        assertThat(blocked.message()).contains("too old").contains("published table is live").doesNotContain("untouched");
        assertThat(blocked.next()).isEqualTo(new NextAction.ReconcileBeforeSync("public.t"));
        assertThat(blocked.blockReason()).isEqualTo(BlockReason.ANCHOR_UNUSABLE);
        assertThat(ledger.handoffReceipt(engine.runKey())).isEmpty();
        var status = CampaignStatusProjector.project(blueprint("").definition().spec(), blueprint("").artifacts(),
                ledger.findByRunKey(engine.runKey()).orElseThrow(), ledger.counts(engine.runKey(), 2),
                ledger.publicationReceipt(engine.runKey()), ledger.handoffReceipt(engine.runKey()), ledger.rollbackReceipt(engine.runKey()));
        assertThat(status.getRecommendedAction()).contains("blocked after publication").doesNotContain("untouched");
    }

    @Test
    void theHandoffStepIsSafeToRepeatAfterACrashBeforeThePhaseMoved() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        lanesCommitEverything(engine.runKey());
        stepUntil(engine, lease, CampaignPhase.Published);
        ledger.recordHandoff(lease, new io.dpone.backfill.core.ledger.HandoffReceipt(engine.runKey(), "h-1", "1000", null));

        assertThat(engine.step(lease).phase()).isEqualTo(CampaignPhase.HandoffCommitted);
        assertThat(ledger.handoffReceipt(engine.runKey()).orElseThrow().receiptId()).isEqualTo("h-1");
    }

    /** Issue 35: one refused attempt stops the campaign at once, its reason naming the chunk and the refused value. */
    @Test
    void aChunkTheTargetRefusedMakesTheCampaignRecoverableAfterOneAttemptNamingTheValue() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        ChunkRecord seen = ledger.chunks(engine.runKey(), 2, 1).get(0);
        ChunkClaim claim = ledger.claim(engine.runKey(), seen, "lane", TTL).orElseThrow();
        assertThat(ledger.refuseChunk(claim, "column \"price\" (numeric -> decimal(9,2)), row id=7: value 1e12 is refused"))
                .isTrue();

        StepResult r = engine.step(lease);

        assertThat(r.phase()).isEqualTo(CampaignPhase.Recoverable);
        assertThat(r.next()).isInstanceOf(NextAction.FixThenResume.class);
        assertThat(r.message()).contains("chunk 2 was refused by the target on attempt 1")
                .contains("column \"price\"").contains("value 1e12 is refused");
        assertThat(ledger.findByRunKey(engine.runKey()).orElseThrow().stopRequested()).isTrue();
        assertThat(engine.resume(lease)).isEqualTo(1);
        lanesCommitEverything(engine.runKey());
        assertThat(stepUntil(engine, lease, CampaignPhase.HandoffCommitted)).endsWith(CampaignPhase.HandoffCommitted);
    }

    @Test
    void chunksFailingPastTheirBudgetMakeTheCampaignRecoverableAndResumeLoadsThemAgain() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        laneFailsChunk(engine.runKey(), 2, 2);

        StepResult r = engine.step(lease);
        assertThat(r.phase()).isEqualTo(CampaignPhase.Recoverable);
        assertThat(r.settled()).isTrue();
        assertThat(r.next()).isInstanceOf(NextAction.FixThenResume.class);
        assertThat(ledger.findByRunKey(engine.runKey()).orElseThrow().stopRequested()).isTrue();

        assertThat(engine.resume(lease)).isEqualTo(1);
        assertThat(phase(engine)).isEqualTo(CampaignPhase.Loading);
        assertThat(ledger.findByRunKey(engine.runKey()).orElseThrow().stopRequested()).isFalse();
        lanesCommitEverything(engine.runKey());
        assertThat(stepUntil(engine, lease, CampaignPhase.HandoffCommitted)).endsWith(CampaignPhase.HandoffCommitted);
    }

    @Test
    void resumeUnderALostLeaseReportsItInsteadOfIgnoringTheFencedTransition() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);
        laneFailsChunk(engine.runKey(), 1, 2);
        engine.step(lease);
        CampaignLease deposed = new CampaignLease(lease.runKey(), "driver", lease.epoch() + 7);

        assertThatThrownBy(() -> engine.resume(deposed)).isInstanceOf(LeaseLostException.class);
        assertThat(phase(engine)).isEqualTo(CampaignPhase.Recoverable);
    }

    @Test
    void lanesExhaustedWhileLoadingStopClaimsAndMakeTheCampaignRecoverable() {
        CampaignEngine engine = engine(blueprint(""));
        CampaignLease lease = openAndLease(engine);
        stepUntil(engine, lease, CampaignPhase.Loading);

        StepResult r = engine.lanesExhausted(lease, "lane pods failed 3 times");

        assertThat(r.phase()).isEqualTo(CampaignPhase.Recoverable);
        assertThat(r.stopsLanes()).isTrue();
        assertThat(ledger.findByRunKey(engine.runKey()).orElseThrow().detail()).contains("lane pods failed 3 times");
    }

    @Test
    void suspendStopsClaimsAndUnsuspendingLoadsOn() {
        CampaignEngine suspended = engine(blueprint("  suspend: true\n"));
        CampaignLease lease = openAndLease(suspended);
        List<CampaignPhase> phases = stepUntil(suspended, lease, CampaignPhase.Suspended);
        assertThat(phases).containsExactly(CampaignPhase.Prepared, CampaignPhase.Suspended);
        assertThat(ledger.findByRunKey(suspended.runKey()).orElseThrow().stopRequested()).isTrue();
        StepResult stillSuspended = suspended.step(lease);
        assertThat(stillSuspended.wantsLanes()).isFalse();
        assertThat(stillSuspended.next()).isEqualTo(new NextAction.LiftSuspension());

        CampaignEngine resumed = engine(blueprint(""));
        assertThat(resumed.runKey()).isEqualTo(suspended.runKey());
        assertThat(resumed.step(lease).phase()).isEqualTo(CampaignPhase.Loading);
        assertThat(ledger.findByRunKey(resumed.runKey()).orElseThrow().stopRequested()).isFalse();
        assertThat(resumed.step(lease).wantsLanes()).isTrue();
    }
}

package io.dpone.backfill.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.source.SourceReadCost;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class BenchReportTest {
    private static final BenchArm B0 = new RawPipeArm();
    private static final BenchArm B2 = new StagedUpsertArm();
    private static final BenchArm S = new CampaignArm();

    @Test
    void theRunWithTheMedianWallTimeStandsForTheArm() {
        ArmSummary s = ArmSummary.of(S, List.of(run("S", 1, 9), run("S", 2, 4), run("S", 3, 6)));
        assertThat(s.median().repetition()).isEqualTo(3);
        ArmSummary even = ArmSummary.of(S, List.of(run("S", 1, 9), run("S", 2, 4)));
        assertThat(even.median().seconds()).as("the faster of the middle two").isEqualTo(4);
    }

    @Test
    void ratiosAreHowManyTimesFasterThanTheOtherArm() {
        ArmSummary b0 = ArmSummary.of(B0, List.of(run("B0", 1, 10)));
        ArmSummary b2 = ArmSummary.of(B2, List.of(run("B2", 1, 100)));
        ArmSummary s = ArmSummary.of(S, List.of(run("S", 1, 12.5)));
        assertThat(s.ratioTo(b0)).isEqualTo(0.8);
        assertThat(s.ratioTo(b2)).isEqualTo(8.0);
    }

    @Test
    void chunkQuantilesUseTheNearestRankOfTheMedianRunsChunks() {
        List<ChunkTiming> chunks = List.of(new ChunkTiming(0, 1, 10), new ChunkTiming(0, 2, 10), new ChunkTiming(1, 4, 10),
                new ChunkTiming(0, 10, 10));
        ArmSummary s = ArmSummary.of(S, List.of(new ArmRun("S", 1, 10, 40, chunks, 100, OptionalLong.empty(), List.of())));
        assertThat(s.chunkQuantile(0.5)).isEqualTo(2);
        assertThat(s.chunkQuantile(0.95)).isEqualTo(10);
        assertThat(s.chunkQuantile(1.0)).isEqualTo(10);
        assertThat(ArmSummary.of(B0, List.of(run("B0", 1, 1))).chunkQuantile(0.5)).as("a single stream has no chunks").isNaN();
    }

    @Test
    void theJsonReportCarriesEveryFigureOfEveryArm() {
        ObjectNode setup = JsonNodeFactory.instance.objectNode().put("rows", 40).put("kind", ChunkKind.UUID.wireName());
        List<ChunkTiming> chunks = List.of(new ChunkTiming(0, 1, 20), new ChunkTiming(0, 2, 20));
        BenchReport report = new BenchReport(setup, 50, List.of(ArmSummary.of(B0, List.of(run("B0", 1, 2))),
                ArmSummary.of(S, List.of(new ArmRun("S", 1, 4, 40, chunks, 60, OptionalLong.of(2048), List.of(8L << 20, 9L << 20))))),
                new SourceReadCost(50, 57, 2, 30, "uuid keys of id lie in random order in the heap"));
        JsonNode s = report.json().path("arms").path("S");
        assertThat(s.path("ratioToB0").asDouble()).isEqualTo(0.5);
        assertThat(s.has("ratioToB2")).as("no B2 ran").isFalse();
        assertThat(s.path("heapPagesPerTablePage").asDouble()).isEqualTo(1.2);
        assertThat(s.path("targetLogBytes").asLong()).isEqualTo(2048);
        assertThat(s.path("chunkSeconds").path("p95OverP50").asDouble()).isEqualTo(2.0);
        assertThat(s.path("maxLanePeakHeapAfterGcMiB").asDouble()).isEqualTo(9.0);
        assertThat(report.json().path("arms").path("B0").path("targetLogBytes").isNull()).as("not measured is null, not 0").isTrue();
        assertThat(report.table()).contains("S         4.00").contains("B0        2.00");
        assertThat(s.path("heapPagesPredicted").asLong()).isEqualTo(57);
        assertThat(s.path("predictedOverMeasured").asDouble()).isEqualTo(0.95);
        assertThat(report.json().path("arms").path("B0").has("heapPagesPredicted")).as("one stream, not the chunks").isFalse();
        assertThat(report.table()).contains("  S   heap page visits: predicted 57 (1.14x), measured 60 (1.20x the table),"
                + " predicted/measured 0.95").doesNotContain("B0  heap page visits")
                .contains("  predicted: uuid keys of id lie in random order in the heap");
    }

    /** Issue 38: arm R's passes are reported as shares of its own load, the figures the issue's budget names. */
    @Test
    void theReconciliationPassesAreReportedAsSharesOfTheLoadBeforeThem() {
        ObjectNode setup = JsonNodeFactory.instance.objectNode().put("rows", 40).put("kind", ChunkKind.UUID.wireName());
        ArmRun r = new ArmRun("R", 1, 50, 40, List.of(), 60, OptionalLong.empty(), List.of())
                .withReconcile(new ReconcileTimes(6, 9.5, 400));
        BenchReport report = new BenchReport(setup, 50, List.of(ArmSummary.of(new ReconcileArm(), List.of(r))),
                SourceReadCost.unknown("not asked"));
        JsonNode passes = report.json().path("arms").path("R").path("reconcile");
        assertThat(passes.path("loadSeconds").asDouble()).isEqualTo(50);
        assertThat(passes.path("nothingChangedShareOfLoad").asDouble()).isEqualTo(0.12);
        assertThat(passes.path("changedShareOfLoad").asDouble()).isEqualTo(0.19);
        assertThat(passes.path("changedRows").asLong()).isEqualTo(400);
        assertThat(report.json().path("arms").path("R").path("runs").get(0).path("changedSeconds").asDouble()).isEqualTo(9.5);
        assertThat(report.table()).contains("R   reconciliation after a 50.00 s load: nothing changed 6.00 s (0.120x the load),"
                + " 400 rows changed 9.50 s (0.190x)");
    }

    /** Issue 35: the read-back gate's seconds stand beside one session's raw read of the same table, as a ratio. */
    @Test
    void theContentCheckIsReportedBesideARawReadOfThePublishedTable() {
        ObjectNode setup = JsonNodeFactory.instance.objectNode().put("rows", 40).put("kind", ChunkKind.UUID.wireName());
        ArmRun checked = new ArmRun("S", 1, 4, 40, List.of(), 60, OptionalLong.empty(), List.of())
                .withContentCheck(java.util.OptionalDouble.of(1.5), java.util.OptionalDouble.of(0.75));
        BenchReport report = new BenchReport(setup, 50, List.of(ArmSummary.of(S, List.of(checked))),
                SourceReadCost.unknown("not asked"));
        JsonNode s = report.json().path("arms").path("S");
        assertThat(s.path("contentCheckSeconds").asDouble()).isEqualTo(1.5);
        assertThat(s.path("rawReadSeconds").asDouble()).isEqualTo(0.75);
        assertThat(report.table()).contains("content check before publication: 1.50 s of its 4.00 s;"
                + " a raw read of the published table by one session: 0.75 s (2.00x)");
    }

    @Test
    void theChartDrawsRowsCommittedAtEachChunkCommitAndAStreamAtItsEnd() {
        List<double[]> stream = BenchChart.committed(run("B0", 1, 3));
        assertThat(stream).hasSize(2);
        assertThat(stream.get(1)).containsExactly(3, 100);
        List<ChunkTiming> chunks = List.of(new ChunkTiming(0, 1, 60), new ChunkTiming(0, 2, 40));
        List<double[]> chunked = BenchChart.committed(new ArmRun("S", 1, 5, 100, chunks, 1, OptionalLong.empty(), List.of()));
        assertThat(chunked).extracting(p -> p[1]).containsExactly(0.0, 60.0, 100.0, 100.0);
        assertThat(chunked.get(3)[0]).as("the line ends at the arm's wall time (validation, publication)").isEqualTo(5);
    }

    private static ArmRun run(String arm, int repetition, double seconds) {
        return new ArmRun(arm, repetition, seconds, 100, List.of(), 10, OptionalLong.empty(), List.of());
    }
}

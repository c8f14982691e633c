package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** `backfill demo` and `backfill bench` end to end (smaller than their default million rows, to keep the suite fast). */
class DemoIT {
    @TempDir
    Path dir;

    @Test
    void demoReachesTheHandoffAndPrintsMatchingEvidence() throws Exception {
        try (LaunchedProcess demo = LaunchedProcess.start(dir, Map.of(), "demo", "--rows", "40000", "--buckets", "16")) {
            assertThat(demo.awaitExit(Duration.ofSeconds(180))).as(demo.output()).isZero();
            String out = demo.output();
            assertThat(out).contains("verified: source 40,000 rows, published 40,000 rows, 40,000 distinct keys, key+amount digest equal");
            String json = out.substring(out.indexOf("{\n"), out.lastIndexOf("}") + 1);
            JsonNode evidence = new ObjectMapper().readTree(json).path("backfill");
            assertThat(evidence.path("phase").asText()).isEqualTo("HandoffCommitted");
            assertThat(evidence.path("publication").path("expected_rows").asLong()).isEqualTo(40_000);
            assertThat(evidence.path("publication").path("actual_rows").asLong()).isEqualTo(40_000);
            assertThat(evidence.path("publication").path("duplicate_keys").asLong()).isZero();
            assertThat(evidence.path("progress").path("committed").asInt()).isEqualTo(16);
        }
    }

    @Test
    void benchRunsEveryArmOnTheSameTableAndReportsThemSideBySide() throws Exception {
        Path html = dir.resolve("bench.html");
        BackfillProcess.Result bench = BackfillProcess.run(dir, Map.of("BACKFILL_LANE_JAVA_OPTS", "-Xss1m"),
                Duration.ofMinutes(4), "bench", "--rows", "30000",
                "--chunks", "4", "--lane-heap", "32m", "--format", "json", "--html", html.toString());
        assertThat(bench.exitCode()).as(bench.stderr()).isZero();
        JsonNode report = new ObjectMapper().readTree(bench.stdout());
        long tablePages = report.path("tablePages").asLong();
        assertThat(tablePages).isPositive();
        assertThat(report.path("laneHeap").asText()).isEqualTo("-Xmx32m");
        assertThat(report.path("laneJavaOptions").asText()).as("the lanes' defaults, the bench's heap cap, the user's options")
                .isEqualTo("-XX:TieredStopAtLevel=1 -Xmx32m -Xss1m");
        assertThat(report.path("laneClassArchive").asText()).as("whether S's lanes mapped the class archive or made it")
                .matches("(mapped|made by the first lane's clean exit): .*/backfill/lane-[0-9a-f]{24}\\.jsa");
        JsonNode arms = report.path("arms");
        assertThat(arms.fieldNames()).toIterable().containsExactly("B0", "B1", "B2", "S");
        for (String arm : List.of("B0", "B1", "B2", "S")) {
            JsonNode a = arms.path(arm);
            assertThat(a.path("rows").asLong()).as(arm).isEqualTo(30_000);
            assertThat(a.path("seconds").asDouble()).as(arm).isPositive();
            assertThat(a.path("rowsPerSecond").asLong()).as(arm).isPositive();
            assertThat(a.path("ratioToB0").asDouble()).as(arm).isPositive();
            assertThat(a.path("ratioToB2").asDouble()).as(arm).isPositive();
            assertThat(a.path("heapPagesVisited").asLong()).as(arm + " reads the whole table at least once").isGreaterThanOrEqualTo(tablePages);
            assertThat(a.path("targetLogBytes").asLong()).as(arm + " writes WAL on the target").isPositive();
            assertThat(a.path("runs")).as(arm).hasSize(1);
        }
        assertThat(arms.path("B0").path("ratioToB0").asDouble()).isEqualTo(1.0);
        assertThat(arms.path("B0").path("heapPagesPerTablePage").asDouble()).as("one stream reads each page once").isEqualTo(1.0);
        for (String arm : List.of("B1", "B2", "S")) {
            JsonNode chunks = arms.path(arm).path("chunkSeconds");
            assertThat(chunks.path("p50").asDouble()).as(arm).isPositive().isLessThanOrEqualTo(chunks.path("p95").asDouble());
            assertThat(chunks.path("p95").asDouble()).as(arm).isLessThanOrEqualTo(chunks.path("max").asDouble());
        }
        JsonNode lanes = arms.path("S").path("lanePeakHeapAfterGcMiB");
        assertThat(lanes).as("one figure per lane process").hasSize(4);
        lanes.forEach(l -> assertThat(l.asDouble()).isPositive().isLessThan(32));
        String page = Files.readString(html);
        assertThat(page).contains("<svg").contains("B0 ").contains("S ");
        assertThat(page.split("<polyline", -1)).as("one line per arm").hasSize(5);
    }

    /** Issue 38: R loads, passes once with nothing changed and once after 1% changed, and checks the table is exact. */
    @Test
    void benchReconciliationArmReportsBothPassesAsSharesOfItsLoad() throws Exception {
        BackfillProcess.Result bench = BackfillProcess.run(dir, Map.of(), Duration.ofMinutes(4), "bench", "--rows", "40000",
                "--chunks", "4", "--arms", "R", "--format", "json");
        assertThat(bench.exitCode()).as(bench.stderr()).isZero();
        assertThat(bench.stderr()).contains("reconcile: pass 1: surveyed in").contains("keys of 0 differing bucket(s)")
                .contains("reconcile: pass 2: surveyed in");
        JsonNode r = new ObjectMapper().readTree(bench.stdout()).path("arms").path("R");
        assertThat(r.path("rows").asLong()).isEqualTo(40_000);
        JsonNode passes = r.path("reconcile");
        assertThat(passes.path("loadSeconds").asDouble()).isEqualTo(r.path("seconds").asDouble());
        assertThat(passes.path("changedRows").asLong()).as("0.5% updated, 0.25% deleted, as many inserted").isEqualTo(400);
        assertThat(passes.path("nothingChangedSeconds").asDouble()).isPositive();
        assertThat(passes.path("changedSeconds").asDouble()).isPositive();
        assertThat(passes.path("changedShareOfLoad").asDouble()).isPositive();
    }

    @Test
    void benchAndDemoRefuseABadOptionNamingItBeforeStartingAnything() throws Exception {
        BackfillProcess.Result arms = BackfillProcess.run(dir, "bench", "--arms", "B0,X");
        assertThat(arms.exitCode()).isEqualTo(2);
        assertThat(arms.stderr()).contains("--arms: unknown arm X (arms are B0, B1, B2, S, R)").doesNotContain("bench: source public.orders");
        BackfillProcess.Result url = BackfillProcess.run(dir, "demo", "--target-url", "jdbc:postgresql://127.0.0.1/x");
        assertThat(url.exitCode()).isEqualTo(2);
        assertThat(url.stderr()).contains("--target-url must be a SQL Server JDBC URL starting with jdbc:sqlserver:")
                .doesNotContain("demo: embedded PostgreSQL 17 on");
        BackfillProcess.Result kind = BackfillProcess.run(dir, "bench", "--kind", "hash");
        assertThat(kind.exitCode()).isEqualTo(2);
        assertThat(kind.stderr()).contains("--kind must be");
    }
}

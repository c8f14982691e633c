package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
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
    void benchReportsBothLoadShapesWithLanesOnASmallHeap() throws Exception {
        try (LaunchedProcess bench = LaunchedProcess.start(dir, Map.of(), "bench", "--rows", "30000", "--buckets", "4")) {
            assertThat(bench.awaitExit(Duration.ofSeconds(180))).as(bench.output()).isZero();
            String out = bench.output();
            JsonNode report = new ObjectMapper().readTree(out.substring(out.lastIndexOf("{\n  \"rows\"")));
            assertThat(report.path("laneHeap").asText()).isEqualTo("-Xmx32m");
            assertThat(report.path("shadowSwap").path("publishedRows").asLong()).isEqualTo(30_000);
            assertThat(report.path("mergeBaseline").path("liveRows").asLong()).as("30,000 merged plus the old row").isEqualTo(30_001);
            assertThat(report.path("speedupVsMerge").asDouble()).isPositive();
            assertThat(report.path("shadowSwap").path("p95ChunkSeconds").asDouble()).isPositive();
        }
    }
}

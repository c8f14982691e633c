package io.dpone.backfill.e2e;

import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The throttle through the CLI (issue 28): `backfill run` of a campaign with a ceiling of 20 rows a second would
 * take a minute for its 1,200 rows; `backfill throttle` from another process raises the ceiling in the ledger, the
 * running lanes read it within a second, and the run finishes under its first run key with every row once.
 */
class ThrottleCliIT {
    @TempDir
    Path dir;

    @Test
    void throttleFromAnotherProcessRaisesTheCeilingOfTheRunningLanes() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "items_throttled_v1", 1200, 4, 2);
        Files.writeString(f.campaignFile, Files.readString(f.campaignFile)
                .replace("  publication: {mode: shadow_swap}", "  publication: {mode: shadow_swap}\n  throttle: {rowsPerSecond: 20}"));
        try (LaunchedProcess run = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (!run.output().contains("rate ceiling: 20 rows/s shared by 2 lanes") && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(run.output()).contains("rate ceiling: 20 rows/s shared by 2 lanes");
            while (f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'running'") == 0
                    && System.nanoTime() < deadline) {
                Thread.sleep(100); // the lanes are loading, at the ceiling
            }
            assertThat(f.cli(0, f.files.withCampaign("status"))).as("read while the lanes load at the ceiling")
                    .contains("Loading").contains("throttle: ").contains("20 rows/s shared by 2 lanes");

            String raised = f.cli(0, f.files.withCampaign("throttle", "--rows-per-second", "1000000"));
            assertThat(raised).contains("ceiling now 1000000 rows/s shared by 2 lanes");
            assertThat(f.cli(2, f.files.withCampaign("throttle", "--rows-per-second", "0")))
                    .as("refused before the ledger is touched").doesNotContain("ceiling now");

            assertThat(run.awaitExit(Duration.ofSeconds(60))).as(run.output()).isZero();
            // The lanes say which ceiling they read: the raised one reached them while they ran.
            java.util.regex.Matcher logs = java.util.regex.Pattern.compile("lane logs in (\\S+)").matcher(run.output());
            assertThat(logs.find()).as(run.output()).isTrue();
            StringBuilder laneLogs = new StringBuilder();
            try (var files = Files.list(Path.of(logs.group(1)))) {
                for (Path log : files.filter(p -> p.getFileName().toString().startsWith("lane-")).toList()) {
                    laneLogs.append(Files.readString(log));
                }
            }
            assertThat(laneLogs.toString()).contains("ceiling 20 rows/s shared by 2 lanes")
                    .contains("ceiling 1000000 rows/s shared by 2 lanes");
        }
        assertThat(ItemsTable.rows(f.target)).isEqualTo(ItemsTable.rows(f.source));
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'")).isEqualTo(4);
        assertThat(f.target.queryForLong("SELECT throttle_rows_per_second FROM backfill_state.campaign")).isEqualTo(1_000_000L);
    }
}

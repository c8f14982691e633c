package io.dpone.backfill.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `backfill run` starts its lanes before preparation (issue 11): their process start overlaps it. Preparation is
 * held here by the live table's advisory lock, so the lanes are seen up and waiting while the campaign is still
 * Planned; once the lock goes, the campaign loads with those same lanes and publishes exactly the source.
 */
class LanesDuringPreparationIT {
    private static final String TARGET_LOCK =
            "SELECT pg_catalog.%s(pg_catalog.hashtextextended('dpone-backfill-target:6:public.items', 0))";

    @TempDir
    Path dir;

    @Test
    void lanesAreUpAndWaitWhilePreparationIsHeldThenLoadOnceItIsDone() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "early_lanes", 3000, 8, 2);
        try (Connection blocker = f.target.connect(); Statement hold = blocker.createStatement()) {
            // Preparation creates the shadow under the live table's advisory lock, the one every shadow change and
            // swap of that table takes (PostgresShadowTransaction.lockTarget): while it is held here, preparation waits.
            hold.execute(TARGET_LOCK.formatted("pg_advisory_lock"));
            // runArgs puts the lane logs in this test's directory.
            Path logs = dir.resolve("lanes");
            try (LaunchedProcess run = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
                run.awaitLine("2 lane\\(s\\) started while the campaign is Planned", Duration.ofSeconds(60));
                for (int lane = 0; lane < 2; lane++) {
                    awaitInFile(logs.resolve("lane-" + lane + ".log"), "campaign is Planned: waiting for preparation to finish");
                }
                assertThat(f.target.queryForStrings("SELECT phase FROM backfill_state.campaign"))
                        .as("still being prepared while the lanes wait").containsExactly("Planned");
                assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state <> 'pending'"))
                        .as("no lane claimed anything before Loading").isZero();

                hold.execute(TARGET_LOCK.formatted("pg_advisory_unlock"));

                assertThat(run.awaitExit(Duration.ofSeconds(180))).as(run.output()).isZero();
                assertThat(Files.readString(logs.resolve("lane-0.log")) + Files.readString(logs.resolve("lane-1.log")))
                        .contains("campaign is Loading: starting").contains("committed");
            }
        }
        f.assertPublishedExactlyTheSource();
    }

    private static void awaitInFile(Path file, String text) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.readString(file).contains(text)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no '" + text + "' in " + file + " within 60 s:\n"
                + (Files.exists(file) ? Files.readString(file) : "(no file)"));
    }
}

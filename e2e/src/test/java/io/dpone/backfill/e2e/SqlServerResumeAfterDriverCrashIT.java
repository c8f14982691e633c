package io.dpone.backfill.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SQL Server route of {@link ResumeAfterDriverCrashIT}: `backfill run` is SIGKILLed while its lanes load into SQL
 * Server; its session-owned application lock ends with its session, so one `backfill resume` right after takes the
 * campaign over at once, although the dead driver's lease row runs for ten more minutes, and publishes exactly once.
 */
class SqlServerResumeAfterDriverCrashIT {
    @TempDir
    Path dir;

    @Test
    void oneResumeRightAfterTheDriverIsKilledFinishesTheCampaignExactlyOnce() throws Exception {
        SqlServerRoute route = new SqlServerRoute(dir, "resume_after_kill", 20_000, 16, 2, 600);
        System.out.println("SqlServerResumeAfterDriverCrashIT runs on " + route.engine);
        LaunchedProcess.killOnceCommitted(dir, route.env(), route.runArgs("run"), route::committedChunks, 2);
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.campaign WHERE phase = N'Loading'"
                + " AND lease_expires > DATEADD(minute, 5, SYSUTCDATETIME())")).as("the dead driver's lease row runs for minutes")
                .isEqualTo(1);

        long started = System.nanoTime();
        String resumed = route.files.cli(route.env(), Duration.ofMinutes(5), 0, route.runArgs("resume"));
        System.out.printf("resume after SIGKILL of the driver reached HandoffCommitted in %.1f s%n", (System.nanoTime() - started) / 1e9);

        assertThat(resumed).contains("took the campaign over from driver@").contains("HandoffCommitted");
        route.assertPublishedExactlyTheSource();
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.chunk_receipt")).isEqualTo(16);
        assertThat(route.count("SELECT lease_epoch FROM backfill_state.campaign")).as("one takeover").isEqualTo(2);
    }
}

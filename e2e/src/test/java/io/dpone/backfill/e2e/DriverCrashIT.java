package io.dpone.backfill.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The driver (`backfill run`) killed around publication: the live table is always the old one or the new one, never
 * missing or partial, and the rerun publishes exactly once.
 */
class DriverCrashIT {
    @TempDir
    Path dir;

    private static void assertOldLiveTable(CampaignFixture f) throws Exception {
        assertThat(f.target.queryForLong("SELECT count(*) FROM public.items")).as("live is still the old table").isEqualTo(1);
        assertThat(f.target.queryForLong("SELECT count(*) FROM public.items WHERE note = 'the old table'")).isEqualTo(1);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt")).isZero();
    }

    @Test
    void aDriverKilledBetweenValidationAndPublicationPublishesOnceOnRerun() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "driver_before_publish", 4000, 8, 2);
        Map<String, String> env = f.env();
        env.put("BACKFILL_FAULT", "before-publish:-1");
        try (LaunchedProcess driver = LaunchedProcess.start(dir, env, f.runArgs("run"))) {
            driver.awaitLine("FAULT before-publish", Duration.ofSeconds(120));
            driver.awaitStopped(Duration.ofSeconds(10));
            assertOldLiveTable(f);
            assertThat(f.target.queryForLong("SELECT count(*) FROM public.items__bf_shadow")).as("validated shadow is complete").isEqualTo(4000);
            driver.signal("KILL");
            driver.awaitExit(Duration.ofSeconds(10));
        }
        assertOldLiveTable(f);
        Thread.sleep(3500); // the dead driver's campaign lease expires
        try (LaunchedProcess rerun = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            assertThat(rerun.awaitExit(Duration.ofSeconds(120))).as(rerun.output()).isZero();
        }
        f.assertPublishedExactlyTheSource();
        assertThat(f.target.queryForLong("SELECT count(*) FROM public.items__bf_backup WHERE note = 'the old table'")).isEqualTo(1);
    }

    @Test
    void aDriverKilledInsideThePublicationTransactionLeavesTheOldTableLive() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "driver_in_publish", 4000, 8, 2);
        Map<String, String> env = f.env();
        env.put("BACKFILL_LOCK_TIMEOUT_SECONDS", "120");
        try (Connection blocker = f.target.connect()) {
            blocker.setAutoCommit(false);
            try (Statement s = blocker.createStatement()) {
                // A reader of the live table: the swap's ALTER TABLE waits for it inside the publication transaction.
                s.execute("SELECT count(*) FROM public.items");
            }
            try (LaunchedProcess driver = LaunchedProcess.start(dir, env, f.runArgs("run"))) {
                long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                while (f.target.queryForLong("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'backfill-driver-target'"
                        + " AND wait_event_type = 'Lock' AND state = 'active'") == 0) {
                    assertThat(System.nanoTime()).as("driver reaches the swap:\n" + driver.output()).isLessThan(deadline);
                    assertThat(driver.process.isAlive()).as(driver.output()).isTrue();
                    Thread.sleep(100);
                }
                driver.signal("KILL");
                driver.awaitExit(Duration.ofSeconds(10));
            }
            blocker.rollback();
        }
        // The server ends the dead driver's session and rolls its transaction back.
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (f.target.queryForLong("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'backfill-driver-target'") > 0) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(100);
        }
        assertOldLiveTable(f);
        assertThat(f.target.queryForLong("SELECT count(*) FROM public.items__bf_shadow")).isEqualTo(4000);
        Thread.sleep(3500);
        try (LaunchedProcess rerun = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            assertThat(rerun.awaitExit(Duration.ofSeconds(120))).as(rerun.output()).isZero();
        }
        f.assertPublishedExactlyTheSource();
    }

    @Test
    void twoDriversRacingAsProcessesPublishOnce() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "driver_race", 4000, 8, 2);
        try (LaunchedProcess a = LaunchedProcess.start(dir, f.env(), f.runArgs("run"));
             LaunchedProcess b = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            int codeA = a.awaitExit(Duration.ofSeconds(120));
            int codeB = b.awaitExit(Duration.ofSeconds(120));
            // The second waits for the first's session (--wait-for-driver) and then finds the campaign handed off.
            assertThat(List.of(codeA, codeB)).as(a.output() + "\n----\n" + b.output()).contains(0).isSubsetOf(Set.of(0, 5));
        }
        f.assertPublishedExactlyTheSource();
    }

    @Test
    void anInvalidCampaignCreatesNothing() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "invalid_campaign", 10, 4, 1);
        java.nio.file.Files.writeString(f.campaignFile, java.nio.file.Files.readString(f.campaignFile).replace("buckets: 4", "buckets: 0"));
        try (LaunchedProcess run = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            assertThat(run.awaitExit(Duration.ofSeconds(60))).isEqualTo(2);
            assertThat(run.output()).contains("spec.chunk.buckets");
        }
        assertThat(f.target.queryForLong("SELECT count(*) FROM pg_namespace WHERE nspname = 'backfill_state'")).isZero();
        assertThat(f.target.queryForLong("SELECT count(*) FROM pg_class WHERE relname LIKE 'items__bf%'")).isZero();
        assertThat(f.target.queryForLong("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")).isZero();
    }

    @Test
    void lanesOfAKilledDriverStopClaimingAndARerunFinishesExactlyOnce() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "driver_orphans", 60_000, 64, 2);
        Map<String, String> env = f.env();
        env.put("BACKFILL_LANE_FAULT", "after-commit:5");
        f.killRunOnceCommitted(env, 2);
        // One lane froze itself after committing chunk 5 (or never reached it); the others notice the dead driver.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (lanesOf(f) > frozenLanes(f)) {
            assertThat(System.nanoTime()).as("orphaned lanes stop by themselves").isLessThan(deadline);
            Thread.sleep(200);
        }
        long committed = f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'");
        assertThat(committed).as("lanes stopped before loading everything").isLessThan(64);
        killLanes(f);
        Thread.sleep(3500);
        try (LaunchedProcess rerun = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            assertThat(rerun.awaitExit(Duration.ofSeconds(120))).as(rerun.output()).isZero();
        }
        f.assertPublishedExactlyTheSource();
    }

    private static java.util.List<ProcessHandle> laneProcesses(CampaignFixture f) {
        String runKey = f.blueprint.identity().runKey();
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(c -> c.contains(" lane ") && c.contains(runKey)).orElse(false)).toList();
    }

    private static long lanesOf(CampaignFixture f) {
        return laneProcesses(f).stream().filter(ProcessHandle::isAlive).filter(p -> state(p) != 'Z').count();
    }

    private static long frozenLanes(CampaignFixture f) {
        return laneProcesses(f).stream().filter(p -> state(p) == 'T').count();
    }

    private static void killLanes(CampaignFixture f) {
        laneProcesses(f).forEach(ProcessHandle::destroyForcibly);
    }

    private static char state(ProcessHandle p) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(p.pid()), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2);
        } catch (java.io.IOException e) {
            return 'X';
        }
    }
}

package io.dpone.backfill.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One resume action after a driver crash (ADR 0016): the driver holds the campaign's driver lock on its state
 * connection, so a `resume` right after a SIGKILL finds the lock free and takes the campaign over at once, with a new
 * epoch, although the dead driver's lease row still has minutes left; and a `resume` while the first driver's session
 * is still open waits for it, naming it, and never takes over, even once that driver's lease row has expired.
 */
class ResumeAfterDriverCrashIT {
    @TempDir
    Path dir;

    @Test
    void oneResumeRightAfterTheDriverIsKilledFinishesTheCampaignExactlyOnce() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "resume_after_kill", 60_000, 64, 2);
        // A lease row that outlives the test by far: only the takeover by the driver lock can let the resume in.
        Map<String, String> env = f.env();
        env.put("BACKFILL_LEASE_TTL_SECONDS", "600");
        f.killRunOnceCommitted(env, 2);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.campaign"
                + " WHERE phase = 'Loading' AND lease_expires > now() + interval '5 minutes'"))
                .as("the dead driver's lease row is far from expiry").isEqualTo(1);

        long started = System.nanoTime();
        String resumed = f.files.cli(env, Duration.ofSeconds(180), 0, f.runArgs("resume"));
        System.out.printf("resume after SIGKILL of the driver reached HandoffCommitted in %.1f s%n", (System.nanoTime() - started) / 1e9);
        assertThat(resumed).contains("took the campaign over from driver@").contains("HandoffCommitted")
                .doesNotContain("another driver holds the campaign lease");
        f.assertPublishedExactlyTheSource();
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).isEqualTo(64);
        assertThat(f.target.queryForLong("SELECT lease_epoch FROM backfill_state.campaign")).as("one takeover").isEqualTo(2);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.handoff_receipt")).isEqualTo(1);
    }

    @Test
    void resumeWhileTheFirstDriversSessionIsOpenWaitsNamingItAndExitsFiveAtTheBound() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "resume_while_held", 4000, 8, 2);
        Map<String, String> frozen = f.env();
        frozen.put("BACKFILL_FAULT", "before-publish:-1");
        try (LaunchedProcess first = LaunchedProcess.start(dir, frozen, f.runArgs("run"))) {
            first.awaitLine("FAULT before-publish", Duration.ofSeconds(120));
            first.awaitStopped(Duration.ofSeconds(10));
            // Stopped, it renews nothing: its lease row expires (3 s) while the server keeps its session open.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (f.target.queryForLong("SELECT count(*) FROM backfill_state.campaign WHERE lease_expires < now()") == 0) {
                assertThat(System.nanoTime()).as("the frozen driver's lease row expires").isLessThan(deadline);
                Thread.sleep(100);
            }
            String holder = f.target.queryForStrings("SELECT lease_owner FROM backfill_state.campaign").get(0);

            try (LaunchedProcess resume = LaunchedProcess.start(dir, f.env(), withWait(f.runArgs("resume"), "4"))) {
                assertThat(resume.awaitExit(Duration.ofSeconds(60))).as(resume.output()).isEqualTo(5);
                assertThat(resume.output())
                        .contains("waiting for the driver that holds the campaign: " + holder + " on host ")
                        .contains("holding the lease since ").contains("s left (--wait-for-driver)")
                        .contains("another driver holds the campaign lease: " + holder);
            }
            assertThat(first.state()).as("the first driver is still frozen: nothing woke it").isEqualTo('T');
            assertThat(f.target.queryForStrings("SELECT lease_owner FROM backfill_state.campaign").get(0)).as("not taken over").isEqualTo(holder);
            assertThat(f.target.queryForLong("SELECT lease_epoch FROM backfill_state.campaign")).isEqualTo(1);
            assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt")).isZero();

            // Woken up, the first driver is still the only one: its session kept the lock, so nobody took over and
            // its epoch is still the campaign's. Whether it gets to publish before it sees its lease row expired is
            // a race (both outcomes are safe: the swap is fenced by epoch); it must never publish twice.
            first.signal("CONT");
            first.awaitExit(Duration.ofSeconds(60));
            assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt")).as(first.output()).isLessThanOrEqualTo(1);
            // Awake, it finds its lease renewal silent past its deadline, aborts its own connections and may take its
            // campaign back under epoch 2 (ADR 0020); nobody else did.
            long epoch = f.target.queryForLong("SELECT lease_epoch FROM backfill_state.campaign");
            assertThat(epoch).as(first.output()).isBetween(1L, 2L);
            if (epoch == 2) {
                assertThat(first.output()).contains("driver: reconnected").contains("campaign taken back with epoch 2");
            }
        }
        f.cli(0, f.runArgs("resume"));
        f.assertPublishedExactlyTheSource();
    }

    private static String[] withWait(String[] args, String seconds) {
        String[] withOption = java.util.Arrays.copyOf(args, args.length + 2);
        withOption[args.length] = "--wait-for-driver";
        withOption[args.length + 1] = seconds;
        return withOption;
    }
}

package io.dpone.backfill.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly once under real process death: a `backfill lane` process freezes itself at a point of the chunk protocol,
 * the test SIGKILLs it (or SIGSTOPs it past its lease and wakes it later), and `backfill resume` finishes the
 * campaign. The published table must hold exactly the source's rows, each key once.
 */
class LaneCrashIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "lane killed {0}")
    @ValueSource(strings = {"after-claim", "mid-copy", "before-commit", "after-commit"})
    void aLaneKilledAnywhereInItsCommitLeavesNeitherLossNorDuplicateAfterResume(String point) throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "crash_" + point.replace('-', '_'), 6000, 8, 2);
        f.prepareToLoading();
        try (LaunchedProcess lane = LaunchedProcess.start(dir, f.laneEnv(point + ":3"), f.laneArgs(0))) {
            lane.awaitLine("FAULT " + point + " chunk=3", Duration.ofSeconds(60));
            lane.awaitStopped(Duration.ofSeconds(10));
            lane.signal("KILL");
            lane.awaitExit(Duration.ofSeconds(10));
        }
        long receiptsForChunk3 = f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt WHERE chunk_id = 3");
        assertThat(receiptsForChunk3).as("chunk 3 committed before the kill").isEqualTo(point.equals("after-commit") ? 1 : 0);

        try (LaunchedProcess resume = LaunchedProcess.start(dir, f.env(), f.runArgs("resume"))) {
            assertThat(resume.awaitExit(Duration.ofSeconds(120))).as(resume.output()).isZero();
            assertThat(resume.output()).contains("HandoffCommitted");
        }
        f.assertPublishedExactlyTheSource();
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).isEqualTo(8);
        if (point.equals("after-commit")) {
            assertThat(f.target.queryForLong("SELECT epoch FROM backfill_state.chunk_receipt WHERE chunk_id = 3"))
                    .as("the committed chunk was not loaded again").isEqualTo(1);
        }
    }

    /**
     * ADR 0021: the killed lane's session, and with it its lane lock, is gone at once, so the next lane takes the
     * chunk under a new epoch while the dead lane's lease is still live (120 s here), not after it expired.
     */
    @Test
    void aKilledLanesChunkGoesToTheNextLaneAtOnceNotWhenItsLeaseExpires() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "lane_lock", 6000, 8, 2);
        f.prepareToLoading();
        java.util.Map<String, String> longLease = new java.util.HashMap<>(f.laneEnv("mid-copy:3"));
        longLease.put("BACKFILL_LEASE_TTL_SECONDS", "120");
        longLease.put("BACKFILL_LEASE_RENEW_SECONDS", "10");
        try (LaunchedProcess lane = LaunchedProcess.start(dir, longLease, f.laneArgs(0))) {
            lane.awaitLine("FAULT mid-copy chunk=3", Duration.ofSeconds(60));
            lane.awaitStopped(Duration.ofSeconds(10));
            lane.signal("KILL");
            lane.awaitExit(Duration.ofSeconds(10));
        }
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE chunk_id = 3 AND state = 'running'"
                + " AND owner_locked AND lease_expires > now() + interval '60 seconds'")).as("the dead lane's lease is live").isOne();
        longLease.remove("BACKFILL_FAULT");
        try (LaunchedProcess next = LaunchedProcess.start(dir, longLease, f.laneArgs(1))) {
            assertThat(next.awaitExit(Duration.ofSeconds(60))).as(next.output()).isZero();
        }
        assertThat(f.target.queryForLong("SELECT epoch FROM backfill_state.chunk_receipt WHERE chunk_id = 3"))
                .as("chunk 3 committed by the next lane under a new epoch").isEqualTo(2);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'")).isEqualTo(8);
        try (LaunchedProcess finish = LaunchedProcess.start(dir, f.env(), f.runArgs("resume"))) {
            assertThat(finish.awaitExit(Duration.ofSeconds(120))).as(finish.output()).isZero();
        }
        f.assertPublishedExactlyTheSource();
    }

    @Test
    void aZombieLaneWokenAfterAnotherLaneTookItsChunkCannotAppendItTwice() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "zombie", 6000, 8, 2);
        f.prepareToLoading();
        try (LaunchedProcess zombie = LaunchedProcess.start(dir, f.laneEnv("before-commit:2"), f.laneArgs(0))) {
            zombie.awaitLine("FAULT before-commit chunk=2", Duration.ofSeconds(60));
            zombie.awaitStopped(Duration.ofSeconds(10));
            Thread.sleep(4000); // past the 3 s lease: chunk 2 is claimable by another lane now
            try (LaunchedProcess other = LaunchedProcess.start(dir, f.laneEnv(null), f.laneArgs(1))) {
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (f.target.queryForLong("SELECT epoch FROM backfill_state.chunk WHERE chunk_id = 2") < 2) {
                    assertThat(System.nanoTime()).as("another lane claims chunk 2").isLessThan(deadline);
                    Thread.sleep(100);
                }
                zombie.signal("CONT");
                assertThat(zombie.awaitExit(Duration.ofSeconds(60))).as(zombie.output()).isZero();
                assertThat(other.awaitExit(Duration.ofSeconds(90))).as(other.output()).isZero();
                assertThat(zombie.output()).contains("chunk 2: lease lost");
            }
        }
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt WHERE chunk_id = 2")).isEqualTo(1);
        assertThat(f.target.queryForLong("SELECT epoch FROM backfill_state.chunk_receipt WHERE chunk_id = 2")).isGreaterThanOrEqualTo(2);
        try (LaunchedProcess finish = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            assertThat(finish.awaitExit(Duration.ofSeconds(120))).as(finish.output()).isZero();
        }
        f.assertPublishedExactlyTheSource();
    }
}

package io.dpone.backfill.e2e;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly once into SQL Server under real process death: a `backfill lane` process freezes itself inside a chunk's
 * commit (after 500 rows went to the bulk copy, before the commit, right after it), the test SIGKILLs it, and
 * `backfill resume` finishes. The published table holds exactly the source's rows, each key once, values equal.
 */
class SqlServerLaneCrashIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "lane killed {0}")
    @ValueSource(strings = {"mid-copy", "after-commit"})
    void aLaneKilledInItsCommitLeavesNeitherLossNorDuplicateAfterResume(String point) throws Exception {
        SqlServerRoute route = new SqlServerRoute(dir, "crash_" + point.replace('-', '_'), 6000, 8, 2, 3);
        System.out.println("SqlServerLaneCrashIT runs on " + route.engine);
        route.prepareToLoading();
        // On SQL Server the killed lane's lease outlives the whole test (ADR 0021): its lane lock, gone with its
        // session, is what frees its chunk for the resume's lanes. Babelfish takes no lane locks (it aborts after a
        // few application-lock conflicts per session; babelfish-gaps.md): there the short lease frees the chunk.
        java.util.Map<String, String> killedLane = new java.util.HashMap<>(route.laneEnv(point + ":3"));
        if (route.sqlServer) {
            killedLane.put("BACKFILL_LEASE_TTL_SECONDS", "600");
            killedLane.put("BACKFILL_LEASE_RENEW_SECONDS", "10");
        }
        try (LaunchedProcess lane = LaunchedProcess.start(dir, killedLane, route.laneArgs(0))) {
            lane.awaitLine("FAULT " + point + " chunk=3", Duration.ofSeconds(90));
            lane.awaitStopped(Duration.ofSeconds(10));
            lane.signal("KILL");
            lane.awaitExit(Duration.ofSeconds(10));
        }
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.chunk_receipt WHERE chunk_id = 3"))
                .as("chunk 3 committed before the kill").isEqualTo(point.equals("after-commit") ? 1 : 0);

        long leaseEnds = 0;
        if (point.equals("mid-copy")) {
            assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.chunk WHERE chunk_id = 3 AND owner_locked = 1"))
                    .as(route.sqlServer ? "claimed under the lane's lock" : "no lane lock on Babelfish").isEqualTo(route.sqlServer ? 1 : 0);
            leaseEnds = route.count("SELECT DATEDIFF(second, '2020-01-01', lease_expires) FROM backfill_state.chunk WHERE chunk_id = 3");
        }
        try (LaunchedProcess resume = LaunchedProcess.start(dir, route.env(), route.runArgs("resume"))) {
            assertThat(resume.awaitExit(Duration.ofSeconds(180))).as(resume.output()).isZero();
            assertThat(resume.output()).contains("HandoffCommitted");
        }
        route.assertPublishedExactlyTheSource();
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.chunk_receipt")).isEqualTo(8);
        if (point.equals("after-commit")) {
            assertThat(route.count("SELECT epoch FROM backfill_state.chunk_receipt WHERE chunk_id = 3"))
                    .as("the committed chunk was not loaded again").isEqualTo(1);
        } else if (route.sqlServer) {
            assertThat(route.count("SELECT DATEDIFF(second, '2020-01-01', committed_at) FROM backfill_state.chunk_receipt"
                    + " WHERE chunk_id = 3")).as("chunk 3 loaded again before the killed lane's lease ran out").isLessThan(leaseEnds);
        }
    }
}

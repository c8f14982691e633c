package io.dpone.backfill.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A publication that waits for a reader or writer of the live table (within the lock timeout) is not a hung driver:
 * the driver's lease renewal goes on while it waits, so the driver neither aborts its own connections nor takes the
 * campaign back under a new epoch. The swap proves its lease at the end of its transaction, just before the receipt:
 * proved first, its row lock on the campaign held the renewal behind the whole swap, and a swap longer than most of
 * the lease TTL (a lock wait here; a slow catalog on a loaded Babelfish in SqlServerLaneCrashIT on CI) made the
 * driver abort and retry it under epochs 2, 3, 4... without end (ADR 0024). Each engine holds the live table its
 * own way.
 */
class PublicationKeepsItsLeaseIT {
    /**
     * A 6 s lease renewed every second: the driver takes 4.8 s without a renewal (80 % of the TTL) for a hung
     * connection, longer than a loaded CI machine stalls a renewal by itself. The live table is held 8 s into
     * publication, past that deadline and within the 20 s lock timeout.
     */
    private static final int LEASE_SECONDS = 6;
    private static final Duration HELD_DURING_PUBLICATION = Duration.ofSeconds(8);

    @TempDir
    Path dir;

    @Test
    void aPostgresSwapWaitingForAWriterOfTheLiveTableKeepsItsLeaseAndEpoch() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "publish_waits", 3000, 8, 2);
        Map<String, String> env = f.env();
        env.put("BACKFILL_LEASE_TTL_SECONDS", Integer.toString(LEASE_SECONDS));
        env.put("BACKFILL_LEASE_RENEW_SECONDS", "1");
        env.put("BACKFILL_LOCK_TIMEOUT_SECONDS", "20");
        try (Connection writer = f.target.connect(); Statement s = writer.createStatement()) {
            writer.setAutoCommit(false);
            // What an in-flight writer of the live table holds: the swap's SHARE ROW EXCLUSIVE waits for it.
            s.execute("LOCK TABLE public.items IN ROW EXCLUSIVE MODE");
            String output = runHoldingUntilPublishing(env, f.runArgs("run"), writer,
                    () -> f.target.queryForStrings("SELECT phase FROM backfill_state.campaign").stream().findFirst().orElse(""));
            assertNoSelfAbort(output);
        }
        f.assertPublishedExactlyTheSource();
        assertThat(f.target.queryForLong("SELECT lease_epoch FROM backfill_state.publication_receipt"))
                .as("published under the epoch the run claimed").isEqualTo(1);
    }

    @Test
    void aSqlServerSwapWaitingForAReaderOfTheLiveTableKeepsItsLeaseAndEpoch() throws Exception {
        SqlServerRoute route = new SqlServerRoute(dir, "publish_waits", 3000, 8, 2, LEASE_SECONDS);
        System.out.println("PublicationKeepsItsLeaseIT runs on " + route.engine);
        Map<String, String> env = route.env();
        env.put("BACKFILL_LOCK_TIMEOUT_SECONDS", "20");
        try (Connection reader = route.engine.connect(route.database); Statement s = reader.createStatement();
             Connection poll = route.engine.connect(route.database)) {
            reader.setAutoCommit(false);
            // A shared table lock to the end of the transaction: the swap's own TABLOCK, HOLDLOCK read goes on beside
            // it, its renames wait. (Babelfish ignores the hints; its read lock holds to the end of the transaction.)
            s.execute("SELECT COUNT_BIG(*) FROM dbo.orders WITH (TABLOCK, HOLDLOCK)");
            // One session polls the phase: a login per poll costs about a second on Babelfish.
            String output = runHoldingUntilPublishing(env, route.runArgs("run"), reader, () -> phase(poll));
            assertNoSelfAbort(output);
        }
        route.assertPublishedExactlyTheSource();
        assertThat(route.count("SELECT lease_epoch FROM backfill_state.publication_receipt"))
                .as("published under the epoch the run claimed").isEqualTo(1);
    }

    /** Runs the driver; once the campaign is Publishing, keeps the live table held a while longer, then lets go. */
    private String runHoldingUntilPublishing(Map<String, String> env, String[] args, Connection holder,
                                             Callable<String> phase) throws Exception {
        try (LaunchedProcess run = LaunchedProcess.start(dir, env, args)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
            while (!"Publishing".equals(phaseOrEmpty(phase))) {
                if (System.nanoTime() > deadline || !run.process.isAlive()) {
                    throw new AssertionError("the campaign never reached Publishing:\n" + run.output());
                }
                Thread.sleep(50);
            }
            Thread.sleep(HELD_DURING_PUBLICATION.toMillis());
            assertThat(phaseOrEmpty(phase)).as("the swap waited for the held live table").isEqualTo("Publishing");
            holder.rollback();
            assertThat(run.awaitExit(Duration.ofSeconds(180))).as(run.output()).isZero();
            return run.output();
        }
    }

    private static void assertNoSelfAbort(String output) {
        assertThat(output).contains("HandoffCommitted")
                .doesNotContain("aborting its connections")
                .doesNotContain("driver: reconnected");
    }

    private static String phaseOrEmpty(Callable<String> phase) {
        try {
            return phase.call();
        } catch (Exception notYet) {
            return "";
        }
    }

    private static String phase(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); var rs = s.executeQuery("SELECT phase FROM backfill_state.campaign")) {
            return rs.next() ? rs.getString(1) : "";
        }
    }
}

package io.dpone.backfill.e2e;

import io.dpone.backfill.pgembedded.EmbeddedPostgres;
import io.dpone.backfill.testsupport.net.FaultyTcpProxy;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transient faults heal without a person (ADR 0020), on real processes: one `backfill run` finishes the campaign,
 * exactly once and with exit 0, through a restart of the database server while its lanes load, and through target
 * connections that went half-open (a proxy that keeps them open but stops carrying bytes, while new connections
 * pass). Nobody resumes anything.
 */
class ConnectionFaultsHealIT {
    @TempDir
    Path dir;

    /** Each side's server on its own (the other side on the shared server); one server for both is the same path twice. */
    enum Restarted { SOURCE, TARGET }

    @ParameterizedTest(name = "{0} server restarted")
    @EnumSource(Restarted.class)
    void aRestartOfADatabaseServerMidLoadNeedsNoAction(Restarted which) throws Exception {
        try (EmbeddedPostgres server = EmbeddedPostgres.start()) {
            server.createDatabase("src");
            server.createDatabase("tgt");
            // The restarted server holds the restarted side; the other side lives on the shared server.
            PostgresDatabase source = which == Restarted.SOURCE ? new PostgresDatabase(server, "src") : PostgresDatabase.fresh("e2esrc");
            PostgresDatabase target = which == Restarted.TARGET ? new PostgresDatabase(server, "tgt") : PostgresDatabase.fresh("e2etgt");
            CampaignFixture f = new CampaignFixture(dir, "restart_" + which.name().toLowerCase(), 60_000,
                    CampaignYaml.uuidChunks(64), 2, source, target, null);
            Map<String, String> env = f.env();
            env.put("BACKFILL_RECONNECT_BUDGET_SECONDS", "60");
            try (LaunchedProcess run = LaunchedProcess.start(dir, env, f.runArgs("run"))) {
                awaitCommitted(f, run, 3);
                server.restart(Duration.ofSeconds(2));
                int exit = run.awaitExit(Duration.ofSeconds(240));
                String output = run.output();
                printHealing(output);
                assertThat(exit).as(output).isZero();
                assertThat(output).contains("driver: connection lost").contains("driver: reconnected")
                        .contains("HandoffCommitted");
            }
            f.assertPublishedExactlyTheSource();
            assertExactlyOnceLedger(f, 64);
            assertThat(laneLogs(f)).as("the lanes healed by themselves").contains("reconnecting in").contains("reconnected");
        }
    }

    @Test
    void resetTargetConnectionsHealWithoutAction() throws Exception {
        PostgresDatabase target = PostgresDatabase.fresh("e2etgt");
        try (FaultyTcpProxy proxy = new FaultyTcpProxy("127.0.0.1", target.server().port())) {
            CampaignFixture f = new CampaignFixture(dir, "reset", 60_000, CampaignYaml.uuidChunks(64), 2,
                    PostgresDatabase.fresh("e2esrc"), target, proxied(target, proxy));
            Map<String, String> env = f.env();
            env.put("BACKFILL_RECONNECT_BUDGET_SECONDS", "60");
            try (LaunchedProcess run = LaunchedProcess.start(dir, env, f.runArgs("run"))) {
                awaitCommitted(f, run, 3);
                assertThat(proxy.cutExisting()).as("driver and lane connections are reset").isGreaterThanOrEqualTo(3);
                int exit = run.awaitExit(Duration.ofSeconds(240));
                String output = run.output();
                printHealing(output);
                assertThat(exit).as(output).isZero();
                assertThat(output).contains("driver: reconnected").contains("HandoffCommitted");
            }
            f.assertPublishedExactlyTheSource();
            assertExactlyOnceLedger(f, 64);
            assertThat(laneLogs(f)).contains("reconnected");
        }
    }

    @Test
    void halfOpenTargetConnectionsHealAndTheHeartbeatKeepsPrinting() throws Exception {
        PostgresDatabase target = PostgresDatabase.fresh("e2etgt");
        try (FaultyTcpProxy proxy = new FaultyTcpProxy("127.0.0.1", target.server().port())) {
            String throughProxy = proxied(target, proxy);
            CampaignFixture f = new CampaignFixture(dir, "half_open", 60_000, CampaignYaml.uuidChunks(64), 2,
                    PostgresDatabase.fresh("e2esrc"), target, throughProxy);
            Map<String, String> env = f.env();
            env.put("BACKFILL_STALL_SECONDS", "4");
            env.put("BACKFILL_RECONNECT_BUDGET_SECONDS", "60");
            try (LaunchedProcess run = LaunchedProcess.start(dir, env, f.runArgs("run"))) {
                awaitCommitted(f, run, 3);
                assertThat(proxy.stallExisting()).as("driver and lane connections go half-open").isGreaterThanOrEqualTo(3);
                int exit = run.awaitExit(Duration.ofSeconds(240));
                String output = run.output();
                printHealing(output);
                assertThat(exit).as(output).isZero();
                assertThat(output).contains("aborting its connections").contains("driver: reconnected")
                        .contains("HandoffCommitted");
            }
            f.assertPublishedExactlyTheSource();
            assertExactlyOnceLedger(f, 64);
            assertThat(laneLogs(f)).as("stalled lanes aborted and healed").contains("reconnected; ended");
        }
    }

    private static String proxied(PostgresDatabase target, FaultyTcpProxy proxy) {
        return target.jdbcUrl().replace(":" + target.server().port() + "/", ":" + proxy.port() + "/");
    }

    /** What healing looked like, for the closing note and for anyone reading a CI log. */
    private static void printHealing(String output) {
        output.lines().filter(l -> l.contains("reconnect") || l.contains("abort") || l.contains("connection lost"))
                .forEach(l -> System.out.println("  | " + l));
    }

    private static void awaitCommitted(CampaignFixture f, LaunchedProcess run, int chunks) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (f.committedChunks() < chunks) {
            if (System.nanoTime() > deadline || !run.process.isAlive()) {
                throw new AssertionError("fewer than " + chunks + " chunks committed while it ran:\n" + run.output());
            }
            Thread.sleep(50);
        }
    }

    /** Every chunk committed once, with one receipt, by the epoch the ledger names. */
    private static void assertExactlyOnceLedger(CampaignFixture f, int chunks) throws Exception {
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).isEqualTo(chunks);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'")).isEqualTo(chunks);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk c JOIN backfill_state.chunk_receipt r"
                + " USING (run_key, chunk_id) WHERE r.epoch <> c.epoch OR r.rows_loaded <> c.rows_loaded"))
                .as("receipts and ledger agree").isZero();
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.handoff_receipt")).isEqualTo(1);
    }

    private String laneLogs(CampaignFixture f) throws Exception {
        Path logs = f.dir.resolve("lanes");
        StringBuilder all = new StringBuilder();
        try (var files = java.nio.file.Files.list(logs)) {
            for (Path p : files.toList()) {
                all.append(java.nio.file.Files.readString(p));
            }
        }
        return all.toString();
    }
}

package io.dpone.backfill.e2e;

import io.dpone.backfill.testsupport.net.FaultyTcpProxy;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transient faults heal without a person on the SQL Server route (ADR 0020): the target's connections are reset, or
 * go half-open (a proxy keeps them open and stops carrying bytes; new connections pass), while lanes load, and one
 * `backfill run` still finishes exactly once with exit 0. A half-open session keeps its application lock and its
 * open bulk copy on the server, so healing depends on ending it with KILL: proven on the engine this runs on (named
 * in the output).
 */
class SqlServerConnectionFaultsHealIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "target connections {0}")
    @ValueSource(strings = {"reset", "half-open"})
    void targetConnectionFaultsMidLoadNeedNoAction(String fault) throws Exception {
        SqlServerRoute route = new SqlServerRoute(dir, "heal_" + fault.replace('-', '_'), 20_000, 32, 2, 3);
        System.out.println("SqlServerConnectionFaultsHealIT (" + fault + ") runs on " + route.engine);
        String url = route.engine.jdbcUrl(route.database);
        URI server = URI.create(url.substring("jdbc:".length(), url.indexOf(';')));
        try (FaultyTcpProxy proxy = new FaultyTcpProxy(server.getHost(), server.getPort())) {
            String proxied = url.replace(server.getHost() + ":" + server.getPort(), "127.0.0.1:" + proxy.port());
            CampaignFiles.writeSecrets(dir, route.source.jdbcUrl(), proxied, route.engine.user(), route.engine.password());
            Map<String, String> env = route.env();
            env.put("BACKFILL_STALL_SECONDS", "5");
            env.put("BACKFILL_RECONNECT_BUDGET_SECONDS", "90");
            try (LaunchedProcess run = LaunchedProcess.start(dir, env, route.runArgs("run"))) {
                long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                while (route.committedChunks() < 3) {
                    if (System.nanoTime() > deadline || !run.process.isAlive()) {
                        throw new AssertionError("fewer than 3 chunks committed while it ran:\n" + run.output());
                    }
                    Thread.sleep(50);
                }
                int affected = fault.equals("reset") ? proxy.cutExisting() : proxy.stallExisting();
                assertThat(affected).as("driver and lane connections hit").isGreaterThanOrEqualTo(3);
                int exit = run.awaitExit(Duration.ofSeconds(300));
                String output = run.output();
                output.lines().filter(l -> l.contains("reconnect") || l.contains("abort"))
                        .forEach(l -> System.out.println("  | " + l));
                assertThat(exit).as(output).isZero();
                assertThat(output).contains("driver: reconnected").contains("HandoffCommitted");
            }
        }
        route.assertPublishedExactlyTheSource();
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.chunk_receipt")).isEqualTo(32);
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.chunk c JOIN backfill_state.chunk_receipt r"
                + " ON r.run_key = c.run_key AND r.chunk_id = c.chunk_id WHERE r.epoch <> c.epoch"))
                .as("receipts and ledger agree").isZero();
    }
}

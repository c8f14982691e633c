package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.source.SourceLoadProbe;
import io.dpone.backfill.core.source.SourceLoadProbeContract;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The source load probe on a real PostgreSQL server (issue 28): sessions are made active for real (each runs
 * {@code pg_sleep} on a connection of its own), and backfill's own are named as its lanes name theirs. The server
 * has no replica, so the lag is NULL here; a lag over its bound is proven on the fake the contract binds to this.
 */
class PostgresSourceLoadProbeIT extends SourceLoadProbeContract {
    private static String database;
    private static Connection probeConnection;

    @BeforeAll
    static void connect() throws SQLException {
        database = SharedEmbeddedPostgres.freshDatabase("load");
        probeConnection = SharedEmbeddedPostgres.get().connect(database);
    }

    @AfterAll
    static void disconnect() throws SQLException {
        probeConnection.close();
    }

    @Override
    protected SourceLoadProbe probe() {
        return new PostgresSourceLoadProbe(probeConnection);
    }

    @Override
    protected AutoCloseable activeSessions(int n) throws Exception {
        return sleepers(n, "a-reporting-job");
    }

    @Override
    protected AutoCloseable backfillSessions(int n) throws Exception {
        return sleepers(n, "backfill-lane-0-source");
    }

    /** {@code n} sessions each running {@code pg_sleep}; returns once the server shows all of them active. */
    private static AutoCloseable sleepers(int n, String applicationName) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(n);
        List<Connection> sessions = new ArrayList<>();
        List<Integer> pids = new ArrayList<>();
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Connection c = SharedEmbeddedPostgres.get().connect(database);
            try (Statement s = c.createStatement()) {
                s.execute("SET application_name = '" + applicationName + "'");
                try (ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                    rs.next();
                    pids.add(rs.getInt(1));
                }
            }
            sessions.add(c);
            running.add(threads.submit(() -> {
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT pg_sleep(60)");
                } catch (SQLException cancelled) {
                    // The handle cancels the sleep.
                }
                return null;
            }));
        }
        while (activeOf(pids) < n) {
            Thread.sleep(10); // the statements start on their threads
        }
        return () -> {
            try (Statement s = probeConnection.createStatement()) {
                for (int pid : pids) {
                    s.execute("SELECT pg_cancel_backend(" + pid + ")");
                }
            }
            for (Future<?> f : running) {
                f.get();
            }
            for (Connection c : sessions) {
                c.close();
            }
            threads.shutdownNow();
            while (activeOf(pids) > 0) {
                Thread.sleep(10); // the server reports the sessions idle (or gone) a moment after the cancel
            }
        };
    }

    private static int activeOf(List<Integer> pids) throws SQLException {
        try (PreparedStatement ps = probeConnection.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND pid = ANY (?)")) {
            ps.setArray(1, probeConnection.createArrayOf("int4", pids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}

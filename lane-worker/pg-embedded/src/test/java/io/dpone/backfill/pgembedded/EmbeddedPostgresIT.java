package io.dpone.backfill.pgembedded;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbeddedPostgresIT {

    @Test
    void runsSqlAndLeavesNoProcessOrDirectoryBehind() throws Exception {
        long t0 = System.nanoTime();
        EmbeddedPostgres pg = EmbeddedPostgres.start();
        long startedMillis = (System.nanoTime() - t0) / 1_000_000;

        ProcessHandle postmaster = ProcessHandle.of(pg.postmasterPid()).orElseThrow();
        Path dataDir = pg.dataDirectory();
        assertThat(dataDir.resolve("PG_VERSION")).hasContent("17");
        try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id int PRIMARY KEY, name text)");
            s.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
            try (ResultSet rs = s.executeQuery("SELECT name FROM t WHERE id = 2")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("two");
            }
            try (ResultSet rs = s.executeQuery("SELECT version()")) {
                rs.next();
                assertThat(rs.getString(1)).startsWith("PostgreSQL 17.");
            }
            try (ResultSet rs = s.executeQuery("SHOW max_connections")) {
                rs.next();
                assertThat(Integer.parseInt(rs.getString(1))).isGreaterThanOrEqualTo(200);
            }
        }
        // The URL alone is enough for DriverManager users.
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl("postgres"))) {
            assertThat(c.isValid(5)).isTrue();
        }
        if (PgProcessRunner.get().runsAsRoot()) {
            assertThat(postmaster.info().user()).contains(PgProcessRunner.SERVICE_USER);
        }
        List<ProcessHandle> children = postmaster.descendants().toList();
        assertThat(children).as("checkpointer, walwriter, ... are children of the postmaster").isNotEmpty();

        long t1 = System.nanoTime();
        pg.close();
        long stoppedMillis = (System.nanoTime() - t1) / 1_000_000;

        // isRunning: pid 1 of some containers collects orphans late, and ProcessHandle counts zombies as alive.
        assertThat(Processes.isRunning(postmaster)).isFalse();
        assertThat(children).noneMatch(Processes::isRunning);
        assertThat(dataDir).doesNotExist();
        assertThat(dataDir.getParent()).doesNotExist();
        System.out.printf("embedded PostgreSQL: start %d ms, stop %d ms%n", startedMillis, stoppedMillis);
    }

    @Test
    void restartEndsEverySessionAndKeepsDataAndPort() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.start()) {
            pg.execute("postgres", "CREATE TABLE kept (id int)", "INSERT INTO kept VALUES (7)");
            long before = pg.postmasterPid();
            try (Connection open = pg.connect("postgres")) {
                pg.restart(java.time.Duration.ofMillis(200));
                assertThatThrownBy(() -> open.createStatement().execute("SELECT 1"))
                        .as("a session of the old server is gone").isInstanceOf(SQLException.class);
            }
            assertThat(pg.postmasterPid()).isNotEqualTo(before);
            assertThat(pg.queryForLong("postgres", "SELECT id FROM kept")).isEqualTo(7);
        }
    }

    @Test
    void twoInstancesRunAtOnceWithTheirOwnSettings() throws Exception {
        try (EmbeddedPostgres a = EmbeddedPostgres.start();
                EmbeddedPostgres b = EmbeddedPostgres.builder()
                        .setting("work_mem", "7MB")
                        .setting("fsync", "on")
                        .setting("cluster_name", "it's \\ quoted")
                        .start()) {
            assertThat(a.port()).isNotEqualTo(b.port());
            assertThat(a.postmasterPid()).isNotEqualTo(b.postmasterPid());
            assertThat(a.dataDirectory()).isNotEqualTo(b.dataDirectory());
            assertThat(show(a, "fsync")).isEqualTo("off");
            assertThat(show(b, "fsync")).isEqualTo("on");
            assertThat(show(b, "work_mem")).isEqualTo("7MB");
            assertThat(show(b, "cluster_name")).isEqualTo("it's \\ quoted");
            assertThat(show(a, "listen_addresses")).isEqualTo("127.0.0.1");

            try (Connection c = a.connect("postgres"); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE only_in_a (x int)");
            }
            try (Connection c = b.connect("postgres"); Statement s = c.createStatement()) {
                assertThatThrownBy(() -> s.executeQuery("SELECT * FROM only_in_a")).isInstanceOf(SQLException.class);
            }
        }
    }

    @Test
    void fixedPortAndIdempotentClose() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        EmbeddedPostgres pg = EmbeddedPostgres.builder().port(port).start();
        assertThat(pg.port()).isEqualTo(port);
        assertThat(pg.jdbcUrl("postgres")).isEqualTo("jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres");
        pg.createDatabase("MixedCase_db");
        try (Connection c = pg.connect("MixedCase_db")) {
            assertThat(c.getCatalog()).isEqualTo("MixedCase_db");
        }
        assertThatThrownBy(() -> pg.createDatabase("x\"; DROP DATABASE postgres; --"))
                .isInstanceOf(IllegalArgumentException.class);

        pg.close();
        assertThat(pg.isClosed()).isTrue();
        pg.close();
        assertThat(pg.dataDirectory()).doesNotExist();
    }

    @Test
    void aTakenFixedPortFailsWithTheServerLogAndCleansUp() throws Exception {
        List<Path> before = TestSupport.instanceDirsOfThisJvm();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> EmbeddedPostgres.builder().port(taken.getLocalPort()).start())
                    .isInstanceOf(EmbeddedPostgresException.class)
                    .hasMessageContaining("server log tail")
                    .hasMessageContaining("could not bind");
        }
        assertThat(TestSupport.instanceDirsOfThisJvm()).containsExactlyInAnyOrderElementsOf(before);
        assertThat(before).allMatch(Files::isDirectory);
    }

    @Test
    void aBadSettingFailsWithTheServerLog() throws Exception {
        List<Path> before = TestSupport.instanceDirsOfThisJvm();
        assertThatThrownBy(() -> EmbeddedPostgres.builder().setting("shared_buffers", "lots").start())
                .isInstanceOf(EmbeddedPostgresException.class)
                .hasMessageContaining("pg_ctl")
                .hasMessageContaining("invalid value for parameter \"shared_buffers\"");
        assertThat(TestSupport.instanceDirsOfThisJvm()).containsExactlyInAnyOrderElementsOf(before);
    }

    private static String show(EmbeddedPostgres pg, String setting) throws SQLException {
        try (Connection c = pg.connect("postgres"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }
}

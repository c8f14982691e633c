package io.dpone.backfill.testsupport.mssql;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** The resolution order and the skip message, with the environment and both starters stubbed. */
class EngineResolutionTest {
    private static final SqlServerTestEngine CONTAINER = new SqlServerTestEngine(EngineKind.SQL_SERVER_TESTCONTAINERS,
            "jdbc:sqlserver://127.0.0.1:1", "sa", "pw", "container");
    private static final SqlServerTestEngine BABELFISH = new SqlServerTestEngine(EngineKind.BABELFISH,
            "jdbc:sqlserver://127.0.0.1:2", "babelfish_user", "pw", "babelfish");

    @Test
    void aConfiguredSqlServerWinsAndItsUrlLosesAnyDatabaseName() {
        AtomicBoolean dockerAsked = new AtomicBoolean();
        EngineResolution r = EngineResolution.resolve(Map.of(
                        "BACKFILL_MSSQL_URL", "jdbc:sqlserver://db:1433;databaseName=prod;encrypt=true",
                        "BACKFILL_MSSQL_USER", "tester", "BACKFILL_MSSQL_PASSWORD", "secret")::get,
                () -> dockerAsked.getAndSet(true), () -> CONTAINER, p -> BABELFISH);

        SqlServerTestEngine engine = r.engine().orElseThrow();
        assertThat(engine.kind()).isEqualTo(EngineKind.SQL_SERVER);
        assertThat(engine.jdbcUrl("t1")).isEqualTo("jdbc:sqlserver://db:1433;encrypt=true;databaseName=t1");
        assertThat(engine.user()).isEqualTo("tester");
        assertThat(engine.password()).isEqualTo("secret");
        assertThat(dockerAsked).as("Docker is not even probed").isFalse();
    }

    @Test
    void dockerComesBeforeBabelfish() throws Exception {
        Path tarball = Files.createTempFile("babelfish", ".tar.xz");
        try {
            EngineResolution r = EngineResolution.resolve(Map.of("BACKFILL_BABELFISH_DIST", tarball.toString())::get,
                    () -> true, () -> CONTAINER, p -> BABELFISH);
            assertThat(r.engine()).containsSame(CONTAINER);
        } finally {
            Files.delete(tarball);
        }
    }

    @Test
    void babelfishIsTheLastResortAndIsStartedFromTheNamedTarball() throws Exception {
        Path tarball = Files.createTempFile("babelfish", ".tar.xz");
        try {
            Path[] started = new Path[1];
            EngineResolution r = EngineResolution.resolve(Map.of("BACKFILL_BABELFISH_DIST", tarball.toString())::get,
                    () -> false, () -> CONTAINER, p -> {
                        started[0] = p;
                        return BABELFISH;
                    });
            assertThat(r.engine()).containsSame(BABELFISH);
            assertThat(started[0]).isEqualTo(tarball);
        } finally {
            Files.delete(tarball);
        }
    }

    @Test
    void withNoEngineTheSkipMessageSaysWhyAndNamesTheThreeOptions() {
        EngineResolution r = EngineResolution.resolve(Map.<String, String>of()::get, () -> false,
                () -> CONTAINER, p -> BABELFISH);

        assertThat(r.engine()).isEmpty();
        assertThat(r.unavailableMessage())
                .contains("BACKFILL_MSSQL_URL is not set")
                .contains("Docker is not available")
                .contains("BACKFILL_BABELFISH_DIST is not set")
                .contains("BACKFILL_MSSQL_USER").contains("Testcontainers")
                .contains("this SQL Server suite is skipped").contains("CI has none: there these suites always skip")
                .doesNotContain("shared/engines");
    }

    @Test
    void aTarballPathThatIsNoFileIsReportedNotStarted() {
        EngineResolution r = EngineResolution.resolve(Map.of("BACKFILL_BABELFISH_DIST", "/nonexistent/b.tar.xz")::get,
                () -> false, () -> CONTAINER, p -> {
                    throw new AssertionError("must not start");
                });

        assertThat(r.engine()).isEmpty();
        assertThat(r.unavailableMessage()).contains("/nonexistent/b.tar.xz is not a file");
    }
}

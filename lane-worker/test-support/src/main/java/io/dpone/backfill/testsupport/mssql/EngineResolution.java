package io.dpone.backfill.testsupport.mssql;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Picks the engine once per JVM, first available wins: {@code BACKFILL_MSSQL_URL}, then Testcontainers when Docker
 * answers, then Babelfish from {@code BACKFILL_BABELFISH_DIST}. Why each earlier option was passed over is kept
 * for the skip message. A configured option that fails to start is remembered as a failure and rethrown to every
 * caller, so each test fails at once with the same cause instead of retrying a broken start.
 */
final class EngineResolution {
    static final String MSSQL_URL = "BACKFILL_MSSQL_URL";
    static final String MSSQL_USER = "BACKFILL_MSSQL_USER";
    static final String MSSQL_PASSWORD = "BACKFILL_MSSQL_PASSWORD";
    static final String BABELFISH_DIST = "BACKFILL_BABELFISH_DIST";

    private static EngineResolution shared;

    private final SqlServerTestEngine engine;
    private final List<String> passedOver;
    private final RuntimeException failure;

    private EngineResolution(SqlServerTestEngine engine, List<String> passedOver, RuntimeException failure) {
        this.engine = engine;
        this.passedOver = List.copyOf(passedOver);
        this.failure = failure;
    }

    static synchronized EngineResolution shared() {
        if (shared == null) {
            shared = resolve(System::getenv, DockerSqlServer::dockerAvailable, DockerSqlServer::start,
                    BabelfishServer::shared);
        }
        if (shared.failure != null) {
            throw new IllegalStateException("the configured SQL Server test engine could not be started: "
                    + shared.failure.getMessage(), shared.failure);
        }
        return shared;
    }

    /** The resolution rule itself, with the environment and the two starters passed in so a unit test can run it. */
    static EngineResolution resolve(Function<String, String> env, BooleanSupplier dockerAvailable,
                                    Supplier<SqlServerTestEngine> container,
                                    Function<Path, SqlServerTestEngine> babelfish) {
        List<String> passedOver = new ArrayList<>();
        try {
            String url = blankToNull(env.apply(MSSQL_URL));
            if (url != null) {
                return found(external(url, env.apply(MSSQL_USER), env.apply(MSSQL_PASSWORD)), passedOver);
            }
            passedOver.add(MSSQL_URL + " is not set");
            if (dockerAvailable.getAsBoolean()) {
                return found(container.get(), passedOver);
            }
            passedOver.add("Docker is not available for Testcontainers' SQL Server image");
            String tarball = blankToNull(env.apply(BABELFISH_DIST));
            if (tarball == null) {
                passedOver.add(BABELFISH_DIST + " is not set");
                return new EngineResolution(null, passedOver, null);
            }
            Path path = Path.of(tarball);
            if (!Files.isRegularFile(path)) {
                passedOver.add(BABELFISH_DIST + "=" + tarball + " is not a file");
                return new EngineResolution(null, passedOver, null);
            }
            return found(babelfish.apply(path), passedOver);
        } catch (RuntimeException e) {
            return new EngineResolution(null, passedOver, e);
        }
    }

    Optional<SqlServerTestEngine> engine() {
        return Optional.ofNullable(engine);
    }

    /**
     * Why the SQL Server suites skip, and how to make them run. No T-SQL engine ships with the repository and none
     * can run in CI (no image registry, no SQL Server package, no Docker), so there they always skip; the adapter's
     * contract with the driver and the server is pinned there by unit tests that need no server.
     */
    String unavailableMessage() {
        return "no SQL Server test engine (" + String.join("; ", passedOver) + "), so this SQL Server suite is"
                + " skipped. No T-SQL engine ships with the repository and CI has none: there these suites always"
                + " skip, and the adapter rests on its server-less contract tests (type map, guards, bulk metadata"
                + " against mssql-jdbc's rules, rendered statements). To run it, provide one of: (1) a real SQL"
                + " Server: " + MSSQL_URL + "=jdbc:sqlserver://host:port;encrypt=false;trustServerCertificate=true"
                + " with " + MSSQL_USER + " and " + MSSQL_PASSWORD + "; (2) Docker, for Testcontainers' SQL Server"
                + " image; (3) " + BABELFISH_DIST + "=path to a Babelfish tarball this machine already has"
                + " (T-SQL on PostgreSQL, not SQL Server: see src-docs/babelfish-gaps.md)";
    }

    /** The env URL without any databaseName: the engine appends the test's own database per connection. */
    static SqlServerTestEngine external(String url, String user, String password) {
        String server = url.replaceAll("(?i);\\s*(databaseName|database)\\s*=[^;]*", "");
        return new SqlServerTestEngine(EngineKind.SQL_SERVER, server, blankToNull(user), password,
                server.replaceAll("(?i);\\s*password\\s*=[^;]*", ""));
    }

    private static EngineResolution found(SqlServerTestEngine engine, List<String> passedOver) {
        return new EngineResolution(engine, passedOver, null);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}

package io.dpone.backfill.pgembedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * A real PostgreSQL 17 server in a temporary data directory, listening on 127.0.0.1 only, superuser
 * {@code postgres} with trust authentication. Closing it stops the server and deletes the data; a JVM
 * shutdown hook closes instances that were not closed, and the next start in any JVM removes leftovers
 * of JVMs that died without that hook running.
 *
 * <pre>{@code
 * try (EmbeddedPostgres pg = EmbeddedPostgres.start()) {
 *     pg.createDatabase("orders");
 *     try (Connection c = pg.connect("orders")) { ... }
 * }
 * }</pre>
 */
public final class EmbeddedPostgres implements AutoCloseable {
    public static final String SUPERUSER = "postgres";
    static final String DATA_SUBDIR = "data";
    static final String HOST = "127.0.0.1";

    private static final int PORT_ATTEMPTS = 5;
    private static final Duration INITDB_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final org.postgresql.Driver DRIVER = new org.postgresql.Driver();

    private final Path instanceDir;
    private final Path dataDir;
    private final int port;
    private ProcessHandle postmaster;
    private final PgCtl ctl;
    private boolean closed;

    private EmbeddedPostgres(Path instanceDir, Path dataDir, int port, ProcessHandle postmaster, PgCtl ctl) {
        this.instanceDir = instanceDir;
        this.dataDir = dataDir;
        this.port = port;
        this.postmaster = postmaster;
        this.ctl = ctl;
    }

    /** Starts a server with the default (fast, non-durable) settings on a free port. */
    public static EmbeddedPostgres start() {
        return builder().start();
    }

    public static Builder builder() {
        return new Builder();
    }

    public int port() {
        return port;
    }

    /** A URL carrying {@code user=postgres}, usable directly with {@code DriverManager.getConnection(url)}. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + HOST + ":" + port + "/" + Identifiers.requireDatabaseName(database)
                + "?user=" + SUPERUSER;
    }

    /** A new connection as {@code postgres}; uses the driver directly, so no DriverManager registration is needed. */
    public Connection connect(String database) throws SQLException {
        Connection connection = DRIVER.connect(jdbcUrl(database), new Properties());
        if (connection == null) {
            throw new SQLException("PostgreSQL driver rejected " + jdbcUrl(database));
        }
        return connection;
    }

    /** Creates an empty database; the name must be a plain identifier (it is used quoted, case preserved). */
    public void createDatabase(String name) {
        Identifiers.requireDatabaseName(name);
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE \"" + name + "\"");
        } catch (SQLException e) {
            throw new EmbeddedPostgresException("CREATE DATABASE " + name + " failed: " + e.getMessage(), e);
        }
    }

    /** Runs statements in one session of {@code database}: setup for fixtures and the demo. */
    public void execute(String database, String... statements) throws SQLException {
        try (Connection c = connect(database); java.sql.Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /** The first column of the first row of a query, as text; null for SQL NULL or no row. */
    public String queryForString(String database, String sql) throws SQLException {
        try (Connection c = connect(database); java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** The first column of the first row of a query as a number (0 for SQL NULL). */
    public long queryForLong(String database, String sql) throws SQLException {
        String value = queryForString(database, sql);
        return value == null ? 0 : Long.parseLong(value);
    }

    public synchronized long postmasterPid() {
        return postmaster.pid();
    }

    /**
     * Restarts the server as a maintenance restart or a failover would: {@code pg_ctl stop -m fast} (every session
     * is terminated with 57P01), down for {@code downtime}, then started again on the same port and data. For
     * tests of clients that must heal by themselves.
     */
    public synchronized void restart(Duration downtime) {
        if (closed) {
            throw new IllegalStateException("server is closed");
        }
        Optional<String> problems = Postmaster.shutdown(ctl, instanceDir, dataDir, "fast", postmaster, STOP_TIMEOUT);
        if (problems.isPresent()) {
            throw new EmbeddedPostgresException("restart: stopping failed: " + problems.get());
        }
        try {
            Thread.sleep(downtime.toMillis());
            PgProcessRunner.Result started = ctl.start(dataDir, serverLog(instanceDir), port, instanceDir,
                    instanceDir.resolve("pg_ctl-start.log"), Duration.ofSeconds(60));
            if (!started.ok()) {
                throw new EmbeddedPostgresException("restart: PostgreSQL did not start again on port " + port + ": "
                        + started.describe() + "\nserver log tail:\n" + FileHelpers.tail(serverLog(instanceDir), 30));
            }
        } catch (IOException e) {
            throw new EmbeddedPostgresException("restart failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedPostgresException("restart interrupted", e);
        }
        postmaster = Postmaster.fromPidFile(dataDir).orElseThrow(() -> new EmbeddedPostgresException(
                "restarted but no live postmaster found in " + dataDir.resolve(Postmaster.PID_FILE)));
    }

    /** The server's PGDATA directory (gone after {@link #close()}). */
    public Path dataDirectory() {
        return dataDir;
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Stops the server ({@code pg_ctl stop -m fast}), makes sure the postmaster and its children are gone
     * (killing them if they linger) and deletes the data directory. Calling it again does nothing.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        InstanceRegistry.unregister(this);
        Optional<String> stopProblems = Postmaster.shutdown(ctl, instanceDir, dataDir, "fast", postmaster, STOP_TIMEOUT);
        String logTail = stopProblems.isPresent() ? FileHelpers.tail(serverLog(instanceDir), 30) : "";
        try {
            FileHelpers.deleteRecursively(instanceDir);
        } catch (IOException e) {
            throw new EmbeddedPostgresException("could not delete " + instanceDir + ": " + e, e);
        }
        if (Processes.isRunning(postmaster)) {
            throw new EmbeddedPostgresException("PostgreSQL postmaster " + postmaster.pid()
                    + " could not be stopped: " + stopProblems.orElse("") + "\nserver log tail:\n" + logTail);
        }
    }

    @Override
    public String toString() {
        return "EmbeddedPostgres[port=" + port + ", pid=" + postmaster.pid() + ", data=" + dataDir + "]";
    }

    private static Path serverLog(Path instanceDir) {
        return instanceDir.resolve("server.log");
    }

    /** Optional knobs; the defaults suit tests (fast, not crash-safe). */
    public static final class Builder {
        private final Map<String, String> settings = new LinkedHashMap<>();
        private int port;
        private Duration startTimeout = Duration.ofSeconds(60);

        private Builder() {
            settings.put("listen_addresses", HOST);
            // TCP only: no socket files, so no socket directory permissions to worry about.
            settings.put("unix_socket_directories", "");
            // Test suites open many connections at once (pools per test class).
            settings.put("max_connections", "200");
            // Throwaway data: durability only costs time.
            settings.put("fsync", "off");
            settings.put("synchronous_commit", "off");
            settings.put("full_page_writes", "off");
        }

        /** A fixed port instead of a random free one; start fails (no retry) if it is taken. */
        public Builder port(int port) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            this.port = port;
            return this;
        }

        /** A server setting (postgresql.conf), overriding our default for it; {@code port} goes via {@link #port(int)}. */
        public Builder setting(String name, String value) {
            Identifiers.requireSettingName(name);
            if (name.equals("port")) {
                throw new IllegalArgumentException("use Builder.port(int) to fix the port");
            }
            settings.put(name, Identifiers.requireSettingValue(value));
            return this;
        }

        /** How long {@code pg_ctl start} may wait for the server to accept connections (default 60 s). */
        public Builder startTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("start timeout must be positive: " + timeout);
            }
            this.startTimeout = timeout;
            return this;
        }

        public EmbeddedPostgres start() {
            return launch(this);
        }
    }

    private static EmbeddedPostgres launch(Builder b) {
        Path base = TempRoot.get();
        StaleInstanceSweeper.sweep(base);
        PgCtl ctl = new PgCtl(PgBinaries.install().resolve("bin"), PgProcessRunner.get());
        Path instanceDir;
        try {
            instanceDir = Files.createTempDirectory(base, StaleInstanceSweeper.INSTANCE_PREFIX);
        } catch (IOException e) {
            throw new EmbeddedPostgresException("cannot create an instance directory in " + base + ": " + e, e);
        }
        Path dataDir = instanceDir.resolve(DATA_SUBDIR);
        ProcessHandle postmaster = null;
        try {
            // Ownership first, before anything can start: this is what lets a later sweep clean up after us.
            OwnerFile.write(instanceDir, OwnerFile.Owner.currentJvm(ctl.binDir()));
            ctl.runner().handOver(instanceDir);

            PgProcessRunner.Result initdb = ctl.initdb(dataDir, instanceDir, instanceDir.resolve("initdb.log"),
                    INITDB_TIMEOUT);
            if (!initdb.ok()) {
                throw new EmbeddedPostgresException("initdb failed: " + initdb.describe());
            }
            ServerConfig.apply(dataDir, b.settings);

            int port = 0;
            for (int attempt = 1; postmaster == null; attempt++) {
                port = b.port != 0 ? b.port : freePort();
                long logOffset = FileHelpers.sizeOrZero(serverLog(instanceDir));
                PgProcessRunner.Result started = ctl.start(dataDir, serverLog(instanceDir), port, instanceDir,
                        instanceDir.resolve("pg_ctl-start.log"), b.startTimeout);
                if (started.ok()) {
                    postmaster = Postmaster.fromPidFile(dataDir).orElseThrow(() -> new EmbeddedPostgresException(
                            "server started but no live postmaster found in " + dataDir.resolve(Postmaster.PID_FILE)));
                    break;
                }
                // A half-started server (e.g. pg_ctl timed out) must not linger before we retry or give up.
                Postmaster.fromPidFile(dataDir).ifPresent(pm -> Postmaster.shutdown(ctl, instanceDir, dataDir,
                        "immediate", pm, STOP_TIMEOUT));
                String attemptLog = FileHelpers.readFrom(serverLog(instanceDir), logOffset);
                boolean portTaken = attemptLog.contains("could not bind") || attemptLog.contains("already in use");
                if (b.port != 0 || !portTaken || attempt >= PORT_ATTEMPTS) {
                    throw new EmbeddedPostgresException("PostgreSQL did not start on " + HOST + ":" + port
                            + " (attempt " + attempt + "): " + started.describe()
                            + "\nserver log tail:\n" + FileHelpers.tail(serverLog(instanceDir), 30));
                }
            }
            EmbeddedPostgres pg = new EmbeddedPostgres(instanceDir, dataDir, port, postmaster, ctl);
            InstanceRegistry.register(pg);
            return pg;
        } catch (IOException | RuntimeException e) {
            // Also covers a pg_ctl that we timed out while its postmaster was already up.
            ProcessHandle running = postmaster != null ? postmaster : Postmaster.fromPidFile(dataDir).orElse(null);
            Postmaster.shutdown(ctl, instanceDir, dataDir, "immediate", running, STOP_TIMEOUT);
            try {
                FileHelpers.deleteRecursively(instanceDir);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof EmbeddedPostgresException) {
                throw (EmbeddedPostgresException) e;
            }
            throw new EmbeddedPostgresException("starting embedded PostgreSQL failed: " + e, e);
        }
    }

    /** A port free right now; another process may still take it before the server binds, hence the retries. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        }
    }
}

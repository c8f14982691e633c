package io.dpone.backfill.testsupport.mssql;

import com.microsoft.sqlserver.jdbc.SQLServerDriver;
import org.junit.jupiter.api.Assumptions;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The T-SQL engine this JVM's tests run on, resolved once, in order: a real SQL Server ({@code BACKFILL_MSSQL_URL},
 * {@code BACKFILL_MSSQL_USER}, {@code BACKFILL_MSSQL_PASSWORD}), SQL Server in Docker (Testcontainers), Babelfish
 * from {@code BACKFILL_BABELFISH_DIST}. Tests isolate by database ({@link #freshDatabase(String)}), not by
 * server. When none is available {@link #require()} skips the test, naming the three options; an engine that is
 * configured but does not work fails the test instead, because a silent skip would hide it.
 *
 * <pre>{@code
 * SqlServerTestEngine engine = SqlServerTestEngine.require();
 * String db = engine.freshDatabase("ledger");
 * try (Connection c = engine.connect(db)) { ... }
 * }</pre>
 */
public final class SqlServerTestEngine {
    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9_]{0,29}");
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final SQLServerDriver DRIVER = new SQLServerDriver();

    private final EngineKind kind;
    private final String serverUrl;
    private final String user;
    private final String password;
    private final String description;

    /**
     * @param serverUrl a {@code jdbc:sqlserver://host:port;...} URL without {@code databaseName}; the database is
     *                  appended per connection
     */
    SqlServerTestEngine(EngineKind kind, String serverUrl, String user, String password, String description) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.serverUrl = Objects.requireNonNull(serverUrl, "serverUrl");
        this.user = user;
        this.password = password;
        this.description = description;
    }

    /** The engine, or the test is skipped (JUnit assumption) with a message naming the three ways to get one. */
    public static SqlServerTestEngine require() {
        EngineResolution resolution = EngineResolution.shared();
        Assumptions.assumeTrue(resolution.engine().isPresent(), resolution::unavailableMessage);
        return resolution.engine().orElseThrow();
    }

    public EngineKind kind() {
        return kind;
    }

    /** Connection URL of one database, for {@code DriverManager} together with {@link #user()} and {@link #password()}. */
    public String jdbcUrl(String database) {
        return serverUrl + ";databaseName=" + database;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** A new connection to {@code database}, through the driver directly (no DriverManager registration needed). */
    public Connection connect(String database) throws SQLException {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        Connection connection = DRIVER.connect(jdbcUrl(database), properties);
        if (connection == null) {
            throw new SQLException("SQL Server driver rejected " + jdbcUrl(database));
        }
        return connection;
    }

    /**
     * Creates a new, empty database and returns its name: {@code prefix} (lower case letters, digits, underscores,
     * starting with a letter, at most 30 characters) plus a unique suffix.
     */
    public String freshDatabase(String prefix) {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("database prefix must match " + PREFIX.pattern() + ": " + prefix);
        }
        String name = prefix + "_" + SEQUENCE.incrementAndGet() + "_"
                + Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36 * 36), 36);
        try (Connection c = connect("master"); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE [" + name + "]");
        } catch (SQLException e) {
            throw new IllegalStateException("CREATE DATABASE " + name + " on " + this + " failed: " + e.getMessage(), e);
        }
        return name;
    }

    @Override
    public String toString() {
        return kind + " (" + description + ")";
    }
}

package io.dpone.backfill.testsupport.postgres;

import io.dpone.backfill.pgembedded.EmbeddedPostgres;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** One database on the shared embedded server, with the few statements a test runs against it directly. */
public record PostgresDatabase(EmbeddedPostgres server, String name) {

    /** Creates a new, empty database named {@code prefix} plus a unique suffix (see {@link SharedEmbeddedPostgres#freshDatabase}). */
    public static PostgresDatabase fresh(String prefix) {
        EmbeddedPostgres server = SharedEmbeddedPostgres.get();
        return new PostgresDatabase(server, SharedEmbeddedPostgres.freshDatabase(prefix));
    }

    public String jdbcUrl() {
        return server.jdbcUrl(name);
    }

    /** A new connection as the superuser; the caller closes it. */
    public Connection connect() throws SQLException {
        return server.connect(name);
    }

    /** Runs the statements in turn, in one session, each in its own transaction. */
    public void execute(String... statements) throws SQLException {
        server.execute(name, statements);
    }

    /** The first column of the first row. */
    public long queryForLong(String sql) throws SQLException {
        return server.queryForLong(name, sql);
    }

    /** The first column of every row, as text, in the order the query returns them. */
    public List<String> queryForStrings(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    /** The first column of the first row, as text (null when there is no row). */
    public String queryForString(String sql) throws SQLException {
        List<String> values = queryForStrings(sql);
        return values.isEmpty() ? null : values.get(0);
    }

    /**
     * A login role that must give its password to reach this database, as on a real server: one pg_hba.conf line for
     * this database and this role alone (scram-sha-256), placed first and reloaded, so every other database on the
     * shared server keeps its trust rule. Returns once the server asks the role for its password.
     */
    public void requirePassword(String role, String password) throws SQLException, IOException {
        execute("CREATE ROLE \"" + role + "\" LOGIN PASSWORD '" + password.replace("'", "''") + "'");
        synchronized (PostgresDatabase.class) {
            Path hba = Path.of(queryForString("SHOW hba_file"));
            Files.writeString(hba, "host " + name + " " + role + " 127.0.0.1/32 scram-sha-256\n" + Files.readString(hba));
            execute("SELECT pg_reload_conf()");
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (Connection ignored = java.sql.DriverManager.getConnection(jdbcUrl().replace("user=postgres", "user=" + role))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the server still lets " + role + " in without a password");
                }
                Thread.sleep(50);
            } catch (SQLException askedForPassword) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    public boolean hasSchema(String schema) throws SQLException {
        return queryForLong("SELECT count(*) FROM information_schema.schemata WHERE schema_name = '" + schema + "'") > 0;
    }

    @Override
    public String toString() {
        return name;
    }
}

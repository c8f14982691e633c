package io.dpone.backfill.testsupport.postgres;

import io.dpone.backfill.pgembedded.EmbeddedPostgres;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;

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

    public boolean hasSchema(String schema) throws SQLException {
        return queryForLong("SELECT count(*) FROM information_schema.schemata WHERE schema_name = '" + schema + "'") > 0;
    }

    @Override
    public String toString() {
        return name;
    }
}

package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Small statement helpers shared by the shadow and swap classes. */
public final class PostgresShadowSql {
    private PostgresShadowSql() {
    }

    /** Runs DDL built only from {@link PostgresIdentifiers}-quoted names and catalog-rendered definitions. */
    static void execute(Connection connection, String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    /**
     * COMMENT ON takes no bind parameters, so the server quotes the text itself ({@code format %L}); a NULL text
     * removes the comment. {@code object} is e.g. {@code TABLE "s"."t"}, built from quoted identifiers.
     */
    static void comment(Connection connection, String object, String text) throws SQLException {
        String sql;
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_catalog.format('COMMENT ON %s IS %L', ?::text, ?::text)")) {
            ps.setString(1, object);
            ps.setString(2, text);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                sql = rs.getString(1);
            }
        }
        execute(connection, sql);
    }
}

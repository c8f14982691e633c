package io.dpone.backfill.targets.mssql.publish;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Whether a name is taken in a schema: by a user table, or by any other object (a view would block a rename too). */
final class MssqlTables {
    private MssqlTables() {
    }

    static boolean exists(Connection c, String schema, String table) throws SQLException {
        return objectType(c, schema, table) != null;
    }

    static boolean isTable(Connection c, String schema, String table) throws SQLException {
        return "U".equals(objectType(c, schema, table));
    }

    private static String objectType(Connection c, String schema, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT RTRIM(type) AS type FROM sys.objects"
                + " WHERE object_id = OBJECT_ID(?)")) {
            ps.setString(1, MssqlObjectNames.twoPart(schema, name));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}

package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.publish.SwapStamp;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Ownership stamps kept in one extended property of a table ({@code sp_addextendedproperty}, class OBJECT, minor
 * id 0). A shadow's value is exactly {@code run_key=<runKey>}; after publication the published table says
 * {@code published run_key=...} and the backup {@code backup run_key=...}. Extended properties belong to the
 * object, so they follow the table through {@code sp_rename}.
 */
final class MssqlShadowStamp {
    static final String PROPERTY = "dpone_backfill";
    private static final int MAX_SHOWN = 200;

    private static final String READ = "SELECT CONVERT(nvarchar(4000), value) AS stamp FROM sys.extended_properties"
            + " WHERE class = 1 AND major_id = OBJECT_ID(?, N'U') AND minor_id = 0 AND name = ?";
    private static final String TARGET = " @level0type = N'SCHEMA', @level0name = ?, @level1type = N'TABLE', @level1name = ?";

    private MssqlShadowStamp() {
    }

    static String shadow(String runKey) {
        return SwapStamp.SHADOW.text(runKey);
    }

    static String published(String runKey) {
        return SwapStamp.PUBLISHED.text(runKey);
    }

    static String backup(String runKey) {
        return SwapStamp.BACKUP.text(runKey);
    }

    /** The table's stamp, or null when it has none. */
    static String read(Connection c, String schema, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(READ)) {
            ps.setString(1, MssqlObjectNames.twoPart(schema, table));
            ps.setString(2, PROPERTY);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Adds or replaces the stamp. */
    static void write(Connection c, String schema, String table, String stamp) throws SQLException {
        String procedure = read(c, schema, table) == null ? "sys.sp_addextendedproperty" : "sys.sp_updateextendedproperty";
        try (PreparedStatement ps = c.prepareStatement("EXEC " + procedure + " @name = ?, @value = ?," + TARGET)) {
            ps.setString(1, PROPERTY);
            ps.setString(2, stamp);
            ps.setString(3, schema);
            ps.setString(4, table);
            ps.execute();
        }
    }

    static void drop(Connection c, String schema, String table) throws SQLException {
        if (read(c, schema, table) == null) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("EXEC sys.sp_dropextendedproperty @name = ?," + TARGET)) {
            ps.setString(1, PROPERTY);
            ps.setString(2, schema);
            ps.setString(3, table);
            ps.execute();
        }
    }

    /** Who a stamp says owns a table, for messages: the stamp, bounded, or "no dpone-backfill stamp". */
    static String describeOwner(String stamp) {
        if (stamp == null) {
            return "no dpone-backfill stamp";
        }
        return "'" + (stamp.length() > MAX_SHOWN ? stamp.substring(0, MAX_SHOWN) + "..." : stamp) + "'";
    }
}

package io.dpone.backfill.target.mssql.types;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a target table's columns from sys.columns, typed by their system type (an alias type such as sysname
 * reads as the nvarchar it is), in column order: the reviewed side the type map checks.
 */
public final class MssqlTargetColumns {
    private static final String COLUMNS = "SELECT c.name, t.name, c.max_length, c.precision, c.scale, c.is_nullable, "
            + "c.collation_name FROM sys.columns c "
            + "JOIN sys.tables tb ON tb.object_id = c.object_id "
            + "JOIN sys.schemas s ON s.schema_id = tb.schema_id "
            + "JOIN sys.types t ON t.user_type_id = c.system_type_id "
            + "WHERE s.name = ? AND tb.name = ? ORDER BY c.column_id";

    private MssqlTargetColumns() {
    }

    /** The columns of {@code schema.table}; empty when there is no such table. */
    public static List<MssqlColumn> read(Connection connection, String schema, String table) throws SQLException {
        List<MssqlColumn> columns = new ArrayList<>();
        try (PreparedStatement s = connection.prepareStatement(COLUMNS)) {
            s.setString(1, schema);
            s.setString(2, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    columns.add(new MssqlColumn(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getInt(5),
                            rs.getBoolean(6), rs.getString(7)));
                }
            }
        }
        return columns;
    }
}

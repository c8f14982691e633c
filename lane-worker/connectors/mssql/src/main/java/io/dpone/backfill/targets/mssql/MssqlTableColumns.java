package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.targets.mssql.types.MssqlColumn;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A table's columns as sys.columns describes them, on the system type (a user type's base type). */
public final class MssqlTableColumns {
    private static final String COLUMNS = """
            SELECT c.name, t.name, c.max_length, c.precision, c.scale, c.is_nullable, c.collation_name
              FROM sys.columns c
              JOIN sys.types t ON t.user_type_id = c.system_type_id AND t.user_type_id = t.system_type_id
             WHERE c.object_id = OBJECT_ID(?)
             ORDER BY c.column_id""";

    private MssqlTableColumns() {
    }

    /** The named columns in the order given; a column the table lacks is an error naming it. */
    public static List<MssqlColumn> of(Connection connection, String schema, String table, List<String> names) throws SQLException {
        Map<String, MssqlColumn> all = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(COLUMNS)) {
            ps.setString(1, MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    all.put(rs.getString(1), new MssqlColumn(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4),
                            rs.getInt(5), rs.getBoolean(6), rs.getString(7)));
                }
            }
        }
        List<MssqlColumn> columns = new ArrayList<>(names.size());
        for (String name : names) {
            MssqlColumn column = all.get(name);
            if (column == null) {
                throw new SQLException("table " + schema + "." + table + " has no column " + name + " to load");
            }
            columns.add(column);
        }
        return columns;
    }
}

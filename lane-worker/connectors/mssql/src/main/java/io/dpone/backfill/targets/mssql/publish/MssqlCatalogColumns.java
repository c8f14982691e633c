package io.dpone.backfill.targets.mssql.publish;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Reads a table's columns, in column order, from the documented {@code sys.*} catalog views. */
final class MssqlCatalogColumns {
    // TYPE_NAME(system_type_id) gives an alias type's base type; user_type_id keeps sysname and CLR types apart.
    // IDENT_SEED/IDENT_INCR (a table has at most one identity column) rather than sys.identity_columns, whose
    // sql_variant values Babelfish reports from another table of the same name; both are documented SQL Server.
    private static final String COLUMNS = """
            SELECT c.column_id, c.name,
                   CASE WHEN t.is_user_defined = 1 THEN TYPE_NAME(c.system_type_id) ELSE t.name END AS type_name,
                   c.max_length, c.precision, c.scale, c.is_nullable, c.collation_name, c.is_identity,
                   CASE WHEN c.is_identity = 1 THEN CONVERT(nvarchar(64), IDENT_SEED(?)) END AS seed,
                   CASE WHEN c.is_identity = 1 THEN CONVERT(nvarchar(64), IDENT_INCR(?)) END AS increment,
                   dc.name AS default_name, dc.definition AS default_definition,
                   cc.definition AS computed_definition, cc.is_persisted
              FROM sys.columns AS c
              JOIN sys.types AS t ON t.user_type_id = c.user_type_id
              LEFT JOIN sys.default_constraints AS dc ON dc.object_id = c.default_object_id
              LEFT JOIN sys.computed_columns AS cc ON cc.object_id = c.object_id AND cc.column_id = c.column_id
             WHERE c.object_id = OBJECT_ID(?, N'U')
             ORDER BY c.column_id""";

    private final Connection connection;

    MssqlCatalogColumns(Connection connection) {
        this.connection = connection;
    }

    /** The table's columns; empty when no such user table exists. */
    List<MssqlCatalogColumn> of(String schema, String table) throws SQLException {
        List<MssqlCatalogColumn> columns = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(COLUMNS)) {
            String name = MssqlObjectNames.twoPart(schema, table);
            ps.setString(1, name);
            ps.setString(2, name);
            ps.setString(3, name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(new MssqlCatalogColumn(rs.getInt("column_id"), rs.getString("name"), rs.getString("type_name"),
                            rs.getInt("max_length"), rs.getInt("precision"), rs.getInt("scale"),
                            rs.getBoolean("is_nullable"), rs.getString("collation_name"), rs.getBoolean("is_identity"),
                            rs.getString("seed"), rs.getString("increment"), rs.getString("default_name"),
                            rs.getString("default_definition"), rs.getString("computed_definition"),
                            rs.getBoolean("is_persisted")));
                }
            }
        }
        return columns;
    }
}

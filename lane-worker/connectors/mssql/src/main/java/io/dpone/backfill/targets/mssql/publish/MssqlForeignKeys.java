package io.dpone.backfill.targets.mssql.publish;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table's foreign keys from {@code sys.foreign_keys} and {@code sys.foreign_key_columns}: those of other tables
 * that reference it (inbound, re-pointed by a swap) and its own (outbound, rebuilt on its shadow). A key of the table
 * to itself is outbound only. {@code stamp} is the referencing table's ownership stamp ({@link MssqlShadowStamp}),
 * so a swap can leave earlier campaigns' backups alone.
 */
final class MssqlForeignKeys {
    /** A key, the object id of the table it belongs to, and that table's stamp (null: none). */
    record Found(MssqlForeignKey key, int parentId, String stamp) {
    }

    static final String KEYS = """
            SELECT fk.object_id, fk.parent_object_id, fk.name, OBJECT_SCHEMA_NAME(fk.parent_object_id), OBJECT_NAME(fk.parent_object_id),
                   fk.referenced_object_id, OBJECT_SCHEMA_NAME(fk.referenced_object_id),
                   OBJECT_NAME(fk.referenced_object_id), fk.delete_referential_action_desc,
                   fk.update_referential_action_desc, fk.is_not_for_replication, fk.is_disabled, fk.is_not_trusted,
                   (SELECT CONVERT(nvarchar(4000), p.value) FROM sys.extended_properties AS p
                     WHERE p.class = 1 AND p.major_id = fk.parent_object_id AND p.minor_id = 0 AND p.name = ?),
                   COL_NAME(c.parent_object_id, c.parent_column_id),
                   COL_NAME(c.referenced_object_id, c.referenced_column_id)
              FROM sys.foreign_keys AS fk
              JOIN sys.foreign_key_columns AS c ON c.constraint_object_id = fk.object_id
             WHERE\s""";
    static final String INBOUND = KEYS + "fk.referenced_object_id = OBJECT_ID(?) AND fk.parent_object_id <> fk.referenced_object_id"
            + "\n ORDER BY 3, 4, 2, c.constraint_column_id";
    static final String OUTBOUND = KEYS + "fk.parent_object_id = OBJECT_ID(?)\n ORDER BY 2, c.constraint_column_id";

    private final Connection c;

    MssqlForeignKeys(Connection c) {
        this.c = c;
    }

    /** Other tables' keys referencing {@code schema.table}, by table then name. */
    List<Found> inbound(String schema, String table) throws SQLException {
        return read(INBOUND, schema, table);
    }

    /** {@code schema.table}'s own keys, by name. */
    List<MssqlForeignKey> outbound(String schema, String table) throws SQLException {
        return read(OUTBOUND, schema, table).stream().map(Found::key).toList();
    }

    /** The object id SQL Server resolves {@code schema.table} to (null: no such object). */
    Integer objectId(String schema, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT OBJECT_ID(?, N'U')")) {
            ps.setString(1, MssqlObjectNames.twoPart(schema, table));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                int id = rs.getInt(1);
                return rs.wasNull() ? null : id;
            }
        }
    }

    private List<Found> read(String sql, String schema, String table) throws SQLException {
        record Row(MssqlForeignKey head, int parentId, String stamp, List<String> columns, List<String> referenced) {
        }
        Map<Integer, Row> keys = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, MssqlShadowStamp.PROPERTY);
            ps.setString(2, MssqlObjectNames.twoPart(schema, table));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Row row = keys.get(rs.getInt(1));
                    if (row == null) {
                        row = new Row(new MssqlForeignKey(rs.getString(3), rs.getString(4), rs.getString(5), List.of(),
                                rs.getInt(6), rs.getString(7), rs.getString(8), List.of(), rs.getString(9),
                                rs.getString(10), rs.getBoolean(11), rs.getBoolean(12), rs.getBoolean(13)),
                                rs.getInt(2), rs.getString(14), new ArrayList<>(), new ArrayList<>());
                        keys.put(rs.getInt(1), row);
                    }
                    row.columns().add(rs.getString(15));
                    row.referenced().add(rs.getString(16));
                }
            }
        }
        List<Found> found = new ArrayList<>(keys.size());
        for (Row row : keys.values()) {
            MssqlForeignKey h = row.head();
            found.add(new Found(new MssqlForeignKey(h.name(), h.schema(), h.table(), List.copyOf(row.columns()),
                    h.referencedId(), h.referencedSchema(), h.referencedTable(), List.copyOf(row.referenced()),
                    h.onDelete(), h.onUpdate(), h.notForReplication(), h.disabled(), h.notTrusted()), row.parentId(), row.stamp()));
        }
        return found;
    }
}

package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.publish.SwapStamp;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The foreign keys that touch the live table, from {@code sys.foreign_keys} and {@code sys.foreign_key_columns}: its
 * own (outbound; a key to itself among them) and those of other tables referencing it (inbound), each with the
 * referencing columns' system types, which say how their values can be compared with the source.
 */
final class MssqlDoctorKeys {
    /** A referencing column: its name, system type and collation (null but for strings). */
    record Column(String name, String type, String collation) {
    }

    /**
     * One key. {@code schema.table} holds it (the referencing side), {@code referencedSchema.referencedTable} is
     * referenced; {@code fromBackup}: the referencing table is stamped as an earlier campaign's backup.
     */
    record Key(String name, boolean outbound, boolean selfReference, String schema, String table, List<Column> columns,
               String referencedSchema, String referencedTable, List<String> referencedColumns, boolean disabled,
               boolean notTrusted, boolean fromBackup) {
        String describe() {
            return name + " on " + schema + "." + table + " (" + String.join(", ", columns.stream().map(Column::name)
                    .toList()) + ") -> " + referencedSchema + "." + referencedTable + " (" + String.join(", ",
                    referencedColumns) + ")";
        }

        String qualifiedTable() {
            return MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table);
        }

        String qualifiedReferenced() {
            return MssqlIdentifiers.quote(referencedSchema) + "." + MssqlIdentifiers.quote(referencedTable);
        }

        /** The schema of the table at the key's other end from the live table. */
        String otherSchema() {
            return outbound ? referencedSchema : schema;
        }

        String otherTable() {
            return outbound ? referencedTable : table;
        }
    }

    // The stamp is read as the swap reads it (MssqlInboundReferences), so the doctor skips the keys the swap skips.
    static final String KEYS = """
            SELECT fk.object_id, fk.name, CASE WHEN fk.parent_object_id = ? THEN 1 ELSE 0 END,
                   CASE WHEN fk.parent_object_id = fk.referenced_object_id THEN 1 ELSE 0 END,
                   OBJECT_SCHEMA_NAME(fk.parent_object_id), OBJECT_NAME(fk.parent_object_id),
                   OBJECT_SCHEMA_NAME(fk.referenced_object_id), OBJECT_NAME(fk.referenced_object_id),
                   fk.is_disabled, fk.is_not_trusted,
                   (SELECT CONVERT(nvarchar(4000), p.value) FROM sys.extended_properties AS p
                     WHERE p.class = 1 AND p.major_id = fk.parent_object_id AND p.minor_id = 0 AND p.name = ?),
                   pc.name, t.name, pc.collation_name, rc.name
              FROM sys.foreign_keys AS fk
              JOIN sys.foreign_key_columns AS c ON c.constraint_object_id = fk.object_id
              JOIN sys.columns AS pc ON pc.object_id = c.parent_object_id AND pc.column_id = c.parent_column_id
              JOIN sys.types AS t ON t.user_type_id = pc.system_type_id AND t.user_type_id = t.system_type_id
              JOIN sys.columns AS rc ON rc.object_id = c.referenced_object_id AND rc.column_id = c.referenced_column_id
             WHERE fk.parent_object_id = ? OR fk.referenced_object_id = ?
             ORDER BY fk.object_id, c.constraint_column_id""";

    private final Connection target;

    MssqlDoctorKeys(Connection target) {
        this.target = target;
    }

    /** The keys touching the table {@code objectId}: outbound first, then by referencing table and name. */
    List<Key> of(int objectId) throws SQLException {
        Map<Integer, Key> keys = new LinkedHashMap<>();
        try (PreparedStatement ps = target.prepareStatement(KEYS)) {
            ps.setInt(1, objectId);
            ps.setNString(2, MssqlDoctorArtifacts.STAMP);
            ps.setInt(3, objectId);
            ps.setInt(4, objectId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Key key = keys.get(rs.getInt(1));
                    if (key == null) {
                        String stamp = rs.getString(11);
                        key = new Key(rs.getString(2), rs.getInt(3) == 1, rs.getInt(4) == 1, rs.getString(5),
                                rs.getString(6), new ArrayList<>(), rs.getString(7), rs.getString(8), new ArrayList<>(),
                                rs.getBoolean(9), rs.getBoolean(10), stamp != null && stamp.startsWith(SwapStamp.BACKUP.text("")));
                        keys.put(rs.getInt(1), key);
                    }
                    key.columns().add(new Column(rs.getString(12), rs.getString(13), rs.getString(14)));
                    key.referencedColumns().add(rs.getString(15));
                }
            }
        }
        return keys.values().stream().map(k -> new Key(k.name(), k.outbound(), k.selfReference(), k.schema(), k.table(),
                        List.copyOf(k.columns()), k.referencedSchema(), k.referencedTable(), List.copyOf(k.referencedColumns()),
                        k.disabled(), k.notTrusted(), k.fromBackup()))
                .sorted(Comparator.comparing((Key k) -> !k.outbound()).thenComparing(Key::schema).thenComparing(Key::table)
                        .thenComparing(Key::name))
                .toList();
    }
}

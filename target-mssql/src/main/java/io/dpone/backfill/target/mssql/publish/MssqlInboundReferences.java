package io.dpone.backfill.target.mssql.publish;

import io.dpone.backfill.core.target.ReferencedKeysMissingException;
import io.dpone.backfill.core.target.SwapStamp;
import io.dpone.backfill.target.mssql.MssqlIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Foreign keys of other tables that reference the table a swap moves out (issue 36, as ADR 0038 on PostgreSQL): a
 * key binds to the referenced object, and {@code sp_rename} keeps it there, so after the renames it would check
 * against the backup. Inside the swap's transaction each is dropped and added again under its own name, with its
 * own {@code ON DELETE} / {@code ON UPDATE} actions and {@code NOT FOR REPLICATION}, referencing the incoming table;
 * a key the user left disabled stays disabled, one left untrusted stays untrusted, a trusted one checks every row
 * as it is added (sql-docs docs/t-sql/statements/alter-table-transact-sql.md). Orphans are counted before that:
 * the swap runs with {@code XACT_ABORT ON}, where a failed check (547) would doom the transaction before its rows
 * could be named.
 */
final class MssqlInboundReferences {
    private static final int SAMPLE = 5;

    /** One inbound key as the catalog describes it. */
    record InboundReference(String name, String schema, String table, List<String> columns, List<String> referenced,
                            String onDelete, String onUpdate, boolean notForReplication, boolean disabled,
                            boolean notTrusted) {
        String describe() {
            return name + " on " + schema + "." + table;
        }

        String qualifiedTable() {
            return MssqlObjectNames.twoPart(schema, table);
        }

        /** Checked against every row when re-added: enabled and trusted (a NOT FOR REPLICATION key never is). */
        boolean checked() {
            return !disabled && !notTrusted;
        }
    }

    static final String INBOUND = """
            SELECT fk.object_id, fk.name, OBJECT_SCHEMA_NAME(fk.parent_object_id), OBJECT_NAME(fk.parent_object_id),
                   fk.delete_referential_action_desc, fk.update_referential_action_desc, fk.is_not_for_replication,
                   fk.is_disabled, fk.is_not_trusted,
                   (SELECT CONVERT(nvarchar(4000), p.value) FROM sys.extended_properties AS p
                     WHERE p.class = 1 AND p.major_id = fk.parent_object_id AND p.minor_id = 0 AND p.name = ?)
              FROM sys.foreign_keys AS fk
             WHERE fk.referenced_object_id = OBJECT_ID(?) AND fk.parent_object_id <> fk.referenced_object_id
             ORDER BY 3, 4, 2""";
    static final String COLUMNS = """
            SELECT COL_NAME(c.parent_object_id, c.parent_column_id), COL_NAME(c.referenced_object_id, c.referenced_column_id)
              FROM sys.foreign_key_columns AS c WHERE c.constraint_object_id = ? ORDER BY c.constraint_column_id""";

    private final Connection c;

    MssqlInboundReferences(Connection c) {
        this.c = c;
    }

    /**
     * Every foreign key of another table referencing {@code schema.table}, by table then name, but those of the tables
     * in {@code kept} (a group's other outgoing tables, which move aside with it) and of earlier campaigns' backups
     * (kept for a rollback beside the table they were published with).
     */
    List<InboundReference> of(String schema, String table, Set<String> kept) throws SQLException {
        List<InboundReference> found = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(INBOUND)) {
            ps.setString(1, MssqlShadowStamp.PROPERTY);
            ps.setString(2, MssqlObjectNames.twoPart(schema, table));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String stamp = rs.getString(10);
                    if (schema.equals(rs.getString(3)) && kept.contains(rs.getString(4))
                            || stamp != null && stamp.startsWith(SwapStamp.BACKUP.text(""))) {
                        continue;
                    }
                    ids.add(rs.getInt(1));
                    found.add(new InboundReference(rs.getString(2), rs.getString(3), rs.getString(4), List.of(), List.of(),
                            rs.getString(5), rs.getString(6), rs.getBoolean(7), rs.getBoolean(8), rs.getBoolean(9)));
                }
            }
        }
        List<InboundReference> complete = new ArrayList<>(found.size());
        for (int i = 0; i < found.size(); i++) {
            complete.add(withColumns(found.get(i), ids.get(i)));
        }
        return complete;
    }

    private InboundReference withColumns(InboundReference r, int constraintId) throws SQLException {
        List<String> columns = new ArrayList<>();
        List<String> referenced = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(COLUMNS)) {
            ps.setInt(1, constraintId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                    referenced.add(rs.getString(2));
                }
            }
        }
        return new InboundReference(r.name(), r.schema(), r.table(), columns, referenced, r.onDelete(), r.onUpdate(),
                r.notForReplication(), r.disabled(), r.notTrusted());
    }

    /**
     * Re-creates each of {@code references} against {@code schema.incoming}; the first checked key with orphans stops
     * the swap, before its key is dropped, with their count and a sample.
     */
    void repoint(List<InboundReference> references, String schema, String incoming) throws SQLException {
        String target = MssqlObjectNames.twoPart(schema, incoming);
        for (InboundReference r : references) {
            if (r.checked()) {
                requireNoOrphans(r, target);
            }
            for (String sql : statements(r, target)) {
                MssqlShadowTransaction.execute(c, sql);
            }
        }
    }

    /** The statements that move {@code r} onto {@code target} (two-part, quoted), in order. */
    static List<String> statements(InboundReference r, String target) {
        String table = r.qualifiedTable();
        String name = MssqlIdentifiers.quote(r.name());
        List<String> sql = new ArrayList<>();
        sql.add("ALTER TABLE " + table + " DROP CONSTRAINT " + name);
        // A trusted key is added as ADD alone, which checks every row ("If not specified, WITH CHECK is assumed for
        // new constraints", alter-table-transact-sql.md) and leaves it trusted; WITH NOCHECK keeps an untrusted or
        // disabled key from being checked, as the user left it.
        sql.add("ALTER TABLE " + table + (r.checked() ? "" : " WITH NOCHECK") + " ADD CONSTRAINT " + name
                + " FOREIGN KEY (" + list(r.columns()) + ") REFERENCES " + target + " (" + list(r.referenced())
                + ") ON DELETE " + action(r.onDelete()) + " ON UPDATE " + action(r.onUpdate())
                + (r.notForReplication() ? " NOT FOR REPLICATION" : ""));
        if (r.disabled()) {
            sql.add("ALTER TABLE " + table + " NOCHECK CONSTRAINT " + name);
        }
        return sql;
    }

    /** Rows whose every key column is set (SQL Server checks no row with a NULL in the key) and find no parent. */
    static String orphans(InboundReference r, String target, boolean sample) {
        List<String> set = r.columns().stream().map(col -> "r." + MssqlIdentifiers.quote(col) + " IS NOT NULL").toList();
        List<String> join = new ArrayList<>();
        for (int i = 0; i < r.columns().size(); i++) {
            join.add("t." + MssqlIdentifiers.quote(r.referenced().get(i)) + " = r." + MssqlIdentifiers.quote(r.columns().get(i)));
        }
        String from = " FROM " + r.qualifiedTable() + " AS r WHERE " + String.join(" AND ", set)
                + " AND NOT EXISTS (SELECT 1 FROM " + target + " AS t WHERE " + String.join(" AND ", join) + ")";
        String keys = r.columns().stream().map(col -> "r." + MssqlIdentifiers.quote(col)).collect(Collectors.joining(", "));
        return sample ? "SELECT DISTINCT TOP (" + SAMPLE + ") " + keys + from + " ORDER BY " + keys
                : "SELECT COUNT_BIG(*)" + from;
    }

    private void requireNoOrphans(InboundReference r, String target) throws SQLException {
        long count;
        try (PreparedStatement ps = c.prepareStatement(orphans(r, target, false)); ResultSet rs = ps.executeQuery()) {
            rs.next();
            count = rs.getLong(1);
        }
        if (count == 0) {
            return;
        }
        List<String> sample = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(orphans(r, target, true)); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= r.columns().size(); i++) {
                    values.add(rs.getString(i));
                }
                sample.add("(" + String.join(", ", r.columns()) + ")=(" + String.join(", ", values) + ")");
            }
        }
        throw new ReferencedKeysMissingException(r.describe(), r.schema() + "." + r.table(), count, sample);
    }

    private static String list(List<String> columns) {
        return columns.stream().map(MssqlIdentifiers::quote).collect(Collectors.joining(", "));
    }

    /** {@code NO_ACTION} as the catalog says it, {@code NO ACTION} as ALTER TABLE takes it; anything else refused. */
    static String action(String catalog) {
        return switch (catalog) {
            case "NO_ACTION" -> "NO ACTION";
            case "CASCADE" -> "CASCADE";
            case "SET_NULL" -> "SET NULL";
            case "SET_DEFAULT" -> "SET DEFAULT";
            default -> throw new IllegalStateException("unknown referential action '" + catalog + "' in sys.foreign_keys");
        };
    }
}

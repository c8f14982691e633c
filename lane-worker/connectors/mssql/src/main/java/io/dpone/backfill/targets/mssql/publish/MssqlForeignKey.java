package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One foreign key as {@code sys.foreign_keys} describes it (sql-docs sys-foreign-keys-transact-sql.md), and the
 * T-SQL that recreates it on another table or against another referenced table (alter-table-transact-sql.md:
 * {@code ADD CONSTRAINT ... FOREIGN KEY ... REFERENCES ... [ON DELETE ...] [ON UPDATE ...] [NOT FOR REPLICATION]},
 * {@code WITH NOCHECK}, {@code NOCHECK CONSTRAINT}). {@code referencedId} is the referenced table's object id, so a
 * key is matched to a table as SQL Server resolves names, whatever letter case a campaign spelled it in.
 */
record MssqlForeignKey(String name, String schema, String table, List<String> columns, int referencedId,
                       String referencedSchema, String referencedTable, List<String> referencedColumns,
                       String onDelete, String onUpdate, boolean notForReplication, boolean disabled,
                       boolean notTrusted) {
    private static final int SAMPLE = 5;

    String describe() {
        return name + " on " + schema + "." + table;
    }

    String qualifiedTable() {
        return MssqlObjectNames.twoPart(schema, table);
    }

    String qualifiedReferenced() {
        return MssqlObjectNames.twoPart(referencedSchema, referencedTable);
    }

    /** A key of a table to itself (both sides as the catalog names them, so compared exactly). */
    boolean selfReference() {
        return schema.equals(referencedSchema) && table.equals(referencedTable);
    }

    /** Checked against every row when added: enabled and trusted (SQL Server never trusts a NOT FOR REPLICATION key). */
    boolean checked() {
        return !disabled && !notTrusted;
    }

    String drop() {
        return "ALTER TABLE " + qualifiedTable() + " DROP CONSTRAINT " + MssqlIdentifiers.quote(name);
    }

    /**
     * The statements that create this key as {@code constraintName} on {@code onTable}, referencing
     * {@code referenced} (both two-part, quoted), with its actions, and disabled or untrusted as this one is.
     */
    List<String> add(String onTable, String constraintName, String referenced) {
        String quoted = MssqlIdentifiers.quote(constraintName);
        List<String> sql = new ArrayList<>();
        // A trusted key is added as ADD alone, which checks every row ("If not specified, WITH CHECK is assumed for
        // new constraints", alter-table-transact-sql.md) and leaves it trusted; WITH NOCHECK keeps an untrusted or
        // disabled key from being checked, as the user left it.
        sql.add("ALTER TABLE " + onTable + (checked() ? "" : " WITH NOCHECK") + " ADD CONSTRAINT " + quoted
                + " FOREIGN KEY (" + list(columns) + ") REFERENCES " + referenced + " (" + list(referencedColumns)
                + ") ON DELETE " + action(onDelete) + " ON UPDATE " + action(onUpdate)
                + (notForReplication ? " NOT FOR REPLICATION" : ""));
        if (disabled) {
            sql.add("ALTER TABLE " + onTable + " NOCHECK CONSTRAINT " + quoted);
        }
        return sql;
    }

    /**
     * Rows of {@code referencing} whose every key column is set (SQL Server checks no row with a NULL in the key)
     * and that find no row of {@code referenced}: their count, or a few of their distinct keys.
     */
    String orphans(String referencing, String referenced, boolean sample) {
        List<String> set = columns.stream().map(col -> "r." + MssqlIdentifiers.quote(col) + " IS NOT NULL").toList();
        List<String> join = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            join.add("t." + MssqlIdentifiers.quote(referencedColumns.get(i)) + " = r." + MssqlIdentifiers.quote(columns.get(i)));
        }
        String from = " FROM " + referencing + " AS r WHERE " + String.join(" AND ", set)
                + " AND NOT EXISTS (SELECT 1 FROM " + referenced + " AS t WHERE " + String.join(" AND ", join) + ")";
        String keys = columns.stream().map(col -> "r." + MssqlIdentifiers.quote(col)).collect(Collectors.joining(", "));
        return sample ? "SELECT DISTINCT TOP (" + SAMPLE + ") " + keys + from + " ORDER BY " + keys
                : "SELECT COUNT_BIG(*)" + from;
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

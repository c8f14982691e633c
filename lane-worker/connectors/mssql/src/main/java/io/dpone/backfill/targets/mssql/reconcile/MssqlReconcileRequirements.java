package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.util.Locale;
import java.util.Set;

/**
 * What a published table needs for reconciliation passes into SQL Server (ADR 0056), in one place for the pass,
 * which refuses before writing, and the doctor, which refuses a campaign with {@code spec.reconcile} before its load.
 */
public final class MssqlReconcileRequirements {
    /** Key column types whose values print as the source's key text ({@code RecordKeyText}). */
    public static final String KEY_TYPES = "smallint, int, bigint, nvarchar, varchar and uniqueidentifier";
    private static final Set<String> DIGESTIBLE = Set.of("smallint", "int", "bigint", "nvarchar", "varchar", "uniqueidentifier");

    private MssqlReconcileRequirements() {
    }

    /** Whether a column of {@code typeName} (as sys.types names it) is a rowversion: {@code timestamp} is its system name. */
    public static boolean rowVersion(String typeName) {
        String type = typeName.toLowerCase(Locale.ROOT);
        return type.equals("timestamp") || type.equals("rowversion");
    }

    /** Whether a key column of {@code typeName} can be digested as the source digests it. */
    public static boolean digestibleKey(String typeName) {
        return DIGESTIBLE.contains(typeName.toLowerCase(Locale.ROOT));
    }

    /** The statement that gives {@code schema.table} a rowversion column. */
    public static String addRowVersion(String schema, String table) {
        return "ALTER TABLE " + MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table) + " ADD "
                + MssqlIdentifiers.quote("dpone_row_version") + " rowversion";
    }
}

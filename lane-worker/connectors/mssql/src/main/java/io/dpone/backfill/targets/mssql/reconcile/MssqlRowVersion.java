package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.sql.SQLException;
import java.util.List;

/**
 * What a pass needs of the published table's catalog before it writes anything (ADR 0056): the {@code rowversion}
 * column that tells the product's rows from others', and whether a loaded column has the identity property.
 */
final class MssqlRowVersion {
    private MssqlRowVersion() {
    }

    /** The table's rowversion column; refuses a table without one, naming the table and the fix. */
    static String require(MssqlJdbc jdbc, String schema, String table) throws SQLException {
        String shown = MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table);
        return jdbc.one("SELECT c.name FROM sys.columns AS c WHERE c.object_id = OBJECT_ID(?)"
                        + " AND TYPE_NAME(c.system_type_id) IN (N'timestamp', N'rowversion')", rs -> rs.getString(1), shown)
                .orElseThrow(() -> new IllegalArgumentException("reconciliation into SQL Server needs a rowversion column on "
                        + shown + " to tell the rows the product wrote from rows written there by others after publication;"
                        + " add one (existing rows count as the product's up to the first pass), then run the pass again: "
                        + MssqlReconcileRequirements.addRowVersion(schema, table)));
    }

    /**
     * Whether a loaded key column has the identity property (its inserts then need IDENTITY_INSERT); a loaded identity
     * column outside the key is refused: a pass could not update it.
     */
    static boolean identityLoaded(MssqlJdbc jdbc, String schema, String table, List<String> loaded, List<String> key)
            throws SQLException {
        String shown = MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table);
        List<String> identity = jdbc.list("SELECT c.name FROM sys.columns AS c WHERE c.object_id = OBJECT_ID(?) AND c.is_identity = 1",
                rs -> rs.getString(1), shown);
        for (String column : identity) {
            if (loaded.contains(column) && !key.contains(column)) {
                throw new IllegalArgumentException("reconciliation into " + shown + " cannot rewrite identity column " + column
                        + ": it is loaded but not part of the key, and SQL Server does not update identity columns");
            }
        }
        return identity.stream().anyMatch(key::contains);
    }
}

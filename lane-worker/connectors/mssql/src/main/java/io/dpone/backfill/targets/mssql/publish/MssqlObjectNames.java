package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

/** Bracket-quoted multi-part names, as DDL, OBJECT_ID and sp_rename's @objname take them. */
final class MssqlObjectNames {
    private MssqlObjectNames() {
    }

    /** {@code [schema].[table]}. */
    static String twoPart(String schema, String table) {
        return MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table);
    }

    /** {@code [schema].[table].[index]}: how sp_rename names an index. */
    static String threePart(String schema, String table, String object) {
        return twoPart(schema, table) + "." + MssqlIdentifiers.quote(object);
    }
}

package io.dpone.backfill.core.naming;

import io.dpone.backfill.core.digest.Sha256;

/**
 * Deterministic names for the indexes, constraints and identity sequences that travel with the swap, on every
 * target. Their names share a namespace with the live table's own (PostgreSQL: indexes and sequences in the schema;
 * SQL Server: constraints in the schema), so while both tables exist the shadow's copies carry a temporary name and
 * the backup's originals are renamed away. Both names are derived from the artifact table and the original name
 * only, so a rerun after a crash finds them again without any memory; they are 21 ASCII characters, within
 * PostgreSQL's 63 bytes and SQL Server's 128 characters.
 */
public final class CarriedObjectNames {
    private static final int HASH_CHARS = 16;

    private CarriedObjectNames() {
    }

    /** Name of the shadow's copy of {@code original} before publication (and after rollback). */
    public static String onShadow(ArtifactNames names, String original) {
        return "bf_" + hash("shadow", names.schema(), names.shadowTable(), original) + "_s";
    }

    /** Name the backup's object {@code original} is renamed to at publication. */
    public static String onBackup(ArtifactNames names, String original) {
        return "bf_" + hash("backup", names.schema(), names.backupTable(), original) + "_b";
    }

    private static String hash(String role, String schema, String table, String original) {
        // NUL occurs in no identifier of either engine, so the joined text is unambiguous.
        return Sha256.hex(role + "\u0000" + schema + "\u0000" + table + "\u0000" + original).substring(0, HASH_CHARS);
    }
}

package io.dpone.backfill.target.mssql.publish;

import io.dpone.backfill.core.digest.Sha256;
import io.dpone.backfill.core.naming.ArtifactNames;

/**
 * Deterministic names for the indexes and constraints that travel with the swap. Constraint names (keys, unique,
 * check, default, foreign key) are unique within a schema, so while both tables exist the shadow's copies carry a
 * temporary name and the backup's originals are renamed away; indexes follow the same rule so that every name a
 * person sees after the swap is the one the live table had. Derived from the artifact table and the original name
 * only, so a rerun after a crash finds them again; 21 ASCII characters, well within SQL Server's 128.
 */
final class MssqlShadowNames {
    private static final int HASH_CHARS = 16;

    private MssqlShadowNames() {
    }

    static String onShadow(ArtifactNames names, String original) {
        return "bf_" + hash("shadow", names.schema(), names.shadowTable(), original) + "_s";
    }

    static String onBackup(ArtifactNames names, String original) {
        return "bf_" + hash("backup", names.schema(), names.backupTable(), original) + "_b";
    }

    private static String hash(String role, String schema, String table, String original) {
        return Sha256.hex(role + "\u0000" + schema + "\u0000" + table + "\u0000" + original).substring(0, HASH_CHARS);
    }
}

package io.dpone.backfill.target.postgres.publish;

import io.dpone.backfill.core.digest.Sha256;
import io.dpone.backfill.core.naming.ArtifactNames;

/**
 * Deterministic names for the indexes, constraints and identity sequences that travel with the swap. Index and
 * sequence names share the schema's namespace with the live table's own, so while both tables exist the shadow's
 * copies carry a temporary name and the backup's originals are renamed away. Both names are derived from the
 * artifact table and the original name only, so a rerun after a crash finds them again without any memory; they
 * are 22 ASCII characters, well inside PostgreSQL's 63-byte limit.
 */
public final class PostgresShadowNames {
    private static final int HASH_CHARS = 16;

    private PostgresShadowNames() {
    }

    /** Name of the shadow's copy of {@code original} before publication (and after rollback). */
    static String onShadow(ArtifactNames names, String original) {
        return "bf_" + hash("shadow", names.schema(), names.shadowTable(), original) + "_s";
    }

    /** Name the backup's object {@code original} is renamed to at publication. */
    static String onBackup(ArtifactNames names, String original) {
        return "bf_" + hash("backup", names.schema(), names.backupTable(), original) + "_b";
    }

    private static String hash(String role, String schema, String table, String original) {
        // NUL cannot occur in PostgreSQL identifiers, so the joined text is unambiguous.
        return Sha256.hex(role + "\u0000" + schema + "\u0000" + table + "\u0000" + original).substring(0, HASH_CHARS);
    }
}

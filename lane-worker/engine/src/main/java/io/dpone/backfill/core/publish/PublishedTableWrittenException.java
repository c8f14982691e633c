package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.naming.ArtifactNames;

/**
 * A rollback would move rows written into the published table after publication away from the live name, and
 * the caller did not accept that. Thrown before anything changed.
 */
public class PublishedTableWrittenException extends RuntimeException {
    private final long changedRows;

    public PublishedTableWrittenException(String message, long changedRows) {
        super(message);
        this.changedRows = changedRows;
    }

    public long changedRows() {
        return changedRows;
    }

    /**
     * The rollback's verdict on the published table {@code table} ({@code schema}.{@code table}), comparing its
     * content {@code now} with the fingerprint the publication receipt kept (null: none was kept): null when
     * unchanged, the accepted change when {@code acceptWrites}, else this exception, naming where the writes would
     * go and how to accept them.
     */
    public static String writesSincePublication(ArtifactNames names, String table, TableFingerprint atPublication,
                                                TableFingerprint now, boolean acceptWrites) {
        if (atPublication != null && now.equals(atPublication)) {
            return null;
        }
        String change = atPublication == null ? "no fingerprint was recorded at publication, so writes since then"
                + " cannot be ruled out (" + now.rows() + " row(s) now)" : now.changeSince(atPublication);
        if (acceptWrites) {
            return "accepted: " + change;
        }
        String schema = names.schema();
        throw new PublishedTableWrittenException("the published table " + schema + "." + table + " was written after"
                + " publication (" + change + "): a rollback would move those writes with it to " + schema + "."
                + names.shadowTable() + " and make the backup " + names.backupTable() + " live again without them;"
                + " nothing was changed. Replay them onto the backup first, or accept moving them (backfill rollback"
                + " --accept-writes, or the operator annotation backfill.dpone.io/rollback-accept-writes=true)",
                atPublication == null ? now.rows() : now.changedRowsSince(atPublication));
    }
}

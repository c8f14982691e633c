package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.encoding.RowEncoding;

import java.util.Optional;

/** How a target fingerprints a table's content (see {@link ShadowPublisher#fingerprint}). */
@FunctionalInterface
public interface TableFingerprinter {
    TableFingerprint fingerprint(String schema, String table);

    /** See {@link ShadowPublisher#fingerprintOfLoadedRows}; none unless the target can derive it. */
    default Optional<TableFingerprint> ofLoadedRows(RowEncoding encoding, ChunkDigest receipts) {
        return Optional.empty();
    }
}

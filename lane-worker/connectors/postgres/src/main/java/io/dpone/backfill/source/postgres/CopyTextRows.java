package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.source.postgres.binary.CopyOutInputStream;
import io.dpone.backfill.source.postgres.digest.CopyRowDigests;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

import java.io.IOException;
import java.sql.SQLException;

/**
 * The rows of a text {@code COPY ... TO STDOUT} as they come, one message a row, digested as they pass when
 * {@code digests} is given: a lane's chunk, or what a reconciliation pass reads.
 */
final class CopyTextRows implements ChunkRows {
    private final CopyOut out;
    private final PGConnection connection;
    private final CopyRowDigests digests;
    private byte[] row;

    /** @param digests the chunk's content digest to feed, or null for none */
    CopyTextRows(CopyOut out, PGConnection connection, CopyRowDigests digests) {
        this.out = out;
        this.connection = connection;
        this.digests = digests;
    }

    @Override
    public boolean next() throws SQLException {
        row = out.readFromCopy();
        if (row != null && digests != null) {
            digests.textRow(row);
        }
        return row != null;
    }

    @Override
    public ChunkDigest digest() {
        return digests == null ? null : digests.digester().digest();
    }

    @Override
    public byte[] copyBytes() {
        return row;
    }

    /**
     * An unfinished COPY is cancelled on the server and drained, so the connection serves the next statement
     * (pgjdbc's own cancelCopy leaves the COPY's rest on the socket).
     */
    @Override
    public void close() throws IOException {
        new CopyOutInputStream(out, connection).close();
    }
}

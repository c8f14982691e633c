package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.encoding.RowEncoding;

/**
 * The rows of one chunk range as the source streams them: one row at a time, never the chunk in memory. Closing
 * before the end cancels the source's read.
 */
public interface ChunkRows extends AutoCloseable {
    /** Moves to the next row; false once the chunk is exhausted (or the protocol stopped the stream). */
    boolean next() throws Exception;

    /**
     * The current row in {@link RowEncoding#POSTGRES_COPY_TEXT} or {@link RowEncoding#POSTGRES_COPY_BINARY} (as asked
     * of the source); valid until the next call to {@link #next}.
     */
    byte[] copyBytes();

    /**
     * The current row in {@link RowEncoding#VALUES}: one value per load column, null for SQL NULL; the array is
     * reused, valid until the next call to {@link #next}.
     */
    default Object[] values() {
        throw new UnsupportedOperationException("these rows are not decoded values");
    }

    /**
     * The content digest (ADR 0018) of the rows streamed so far, computed by the source as they passed; complete once
     * {@link #next} returned false. Null when this source computes none.
     */
    default ChunkDigest digest() {
        return null;
    }

    @Override
    void close() throws Exception;
}

package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.plan.ChunkRange;

/** The source half of a lane: the rows of one chunk range of the planned source table, streamed. */
public interface ChunkSource {
    /** Starts streaming the rows of {@code range} in {@code encoding}; the caller closes the rows. */
    ChunkRows open(ChunkRange range, RowEncoding encoding) throws Exception;
}

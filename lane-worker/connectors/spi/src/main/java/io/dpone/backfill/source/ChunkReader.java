package io.dpone.backfill.source;

import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.lane.ChunkSource;

/** A source's chunk reader: the lane's chunk source, which the read-back gate can also watch as it digests. */
public interface ChunkReader extends ChunkSource {
    /**
     * Lets {@code observer} see the canonical fields of every row digested from now on: to locate a difference the
     * read-back gate found (ADR 0036), never on a lane. Needs key columns.
     */
    ChunkReader observing(ContentDigester.RowObserver observer);
}

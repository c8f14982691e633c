package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.ledger.ChunkClaim;

/** The target half of a lane: one target transaction per chunk on the lane's sink connection. */
public interface ChunkSink {
    /** The row encoding this sink loads. */
    RowEncoding encoding();

    /** Opens the chunk's transaction; nothing is visible to anyone else until {@link ChunkTransaction#commit}. */
    ChunkTransaction begin(ChunkClaim claim) throws Exception;
}

package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.ledger.ChunkClaim;

/** The target half of a lane: one target transaction per chunk on the lane's sink connection. */
public interface ChunkSink {
    /** The row encoding this sink loads. */
    RowEncoding encoding();

    /** Opens the chunk's transaction; nothing is visible to anyone else until {@link ChunkTransaction#commit}. */
    ChunkTransaction begin(ChunkClaim claim) throws Exception;

    /**
     * Whether {@code failure} (of a chunk's transaction on this sink) is the target refusing the rows themselves: a
     * value a column cannot hold, a constraint, a column or privilege it lacks. Another attempt would read the same
     * rows and fail the same way, so the lane does not spend the chunk's remaining attempts on it. Lost connections,
     * lock timeouts and anything the target does not name as permanent are not refusals.
     */
    boolean refusesRows(Exception failure);
}

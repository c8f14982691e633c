package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.plan.ChunkRange;

/**
 * Commits one chunk in ONE target transaction on the lane's sink connection: the chunk receipt first, then the
 * chunk's source rows streamed into the load table (never held in memory), then the ledger transition fenced by
 * owner and epoch. Rows extracted must equal rows loaded. Any failure rolls the whole transaction back.
 */
public interface ChunkCommitter {
    ChunkOutcome commit(ChunkClaim claim, ChunkRange range, LeaseWatch watch) throws Exception;

    /**
     * Whether a failure {@link #commit} threw would repeat on every attempt (the target refused the rows). A
     * committer that cannot tell says no: the chunk then keeps its remaining attempts, as before refusals existed.
     */
    default boolean repeatsOnRetry(Exception failure) {
        return false;
    }
}

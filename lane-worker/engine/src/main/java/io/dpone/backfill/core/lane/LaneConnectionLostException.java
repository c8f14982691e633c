package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.ledger.ChunkClaim;

/**
 * A lane lost a connection while it held {@code claim}: its transaction is gone with the connection, so the chunk
 * is neither failed nor committed by this attempt. The lane reconnects, ends its stale sessions and gives the chunk
 * back ({@code abandonChunk}) for a claim under a new epoch.
 */
public final class LaneConnectionLostException extends RuntimeException {
    private final transient ChunkClaim claim;

    public LaneConnectionLostException(ChunkClaim claim, Throwable cause) {
        super("chunk " + claim.chunkId() + " (epoch " + claim.epoch() + "): " + cause.getMessage(), cause);
        this.claim = claim;
    }

    public ChunkClaim claim() {
        return claim;
    }
}

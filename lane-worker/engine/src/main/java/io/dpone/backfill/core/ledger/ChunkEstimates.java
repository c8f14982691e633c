package io.dpone.backfill.core.ledger;

import java.util.List;

/**
 * What the ledger says about work left, from the row estimates recorded at preparation: estimated rows of the
 * chunks waiting to run (pending, failed, or running with an expired lease) and the chunks running now with their
 * progress. {@code complete} is false when some chunk that is not committed has no estimate (a ledger from before
 * estimates): then the ETA falls back to averages.
 */
public record ChunkEstimates(boolean complete, long waitingRows, List<RunningChunk> running) {
    public static final ChunkEstimates NONE = new ChunkEstimates(false, 0, List.of());

    public ChunkEstimates {
        running = List.copyOf(running);
    }
}

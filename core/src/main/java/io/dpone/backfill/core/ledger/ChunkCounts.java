package io.dpone.backfill.core.ledger;

/** Aggregate chunk counters of a campaign, read in one query. */
public record ChunkCounts(int total, int pending, int running, int committed, int failed, int failedExhausted,
                          long rowsExtracted, long rowsLoaded, long committedLastMinuteRows,
                          double secondsSinceFirstStart) {
    public boolean allCommitted() {
        return total > 0 && committed == total || total == 0;
    }
}

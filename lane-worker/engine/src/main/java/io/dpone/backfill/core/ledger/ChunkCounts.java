package io.dpone.backfill.core.ledger;

/** Aggregate chunk counters of a campaign, read in one query, with what the row estimates say about work left. */
public record ChunkCounts(int total, int pending, int running, int committed, int failed, int failedExhausted,
                          long rowsExtracted, long rowsLoaded, long committedLastMinuteRows,
                          double secondsSinceFirstStart, ChunkEstimates estimates) {
    public ChunkCounts {
        estimates = estimates == null ? ChunkEstimates.NONE : estimates;
    }

    /** Counters without estimates (a ledger from before them, or a test that does not need them). */
    public ChunkCounts(int total, int pending, int running, int committed, int failed, int failedExhausted,
                       long rowsExtracted, long rowsLoaded, long committedLastMinuteRows, double secondsSinceFirstStart) {
        this(total, pending, running, committed, failed, failedExhausted, rowsExtracted, rowsLoaded,
                committedLastMinuteRows, secondsSinceFirstStart, ChunkEstimates.NONE);
    }

    public boolean allCommitted() {
        return total > 0 && committed == total || total == 0;
    }
}

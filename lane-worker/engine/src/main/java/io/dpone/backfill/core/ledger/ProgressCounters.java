package io.dpone.backfill.core.ledger;

import java.util.List;

/**
 * What one progress read of a ledger with progress counters returns (ADR 0027), before it is turned into
 * {@link ChunkCounts}: the plan's totals, the committed chunks' counters summed over the lanes that committed them,
 * and what the open (running and failed) chunks, the last minute's commits and the first start say. Nothing here
 * grows with the committed chunks; pending, unestimated and waiting rows are what the plan holds less what the
 * counters and the open chunks account for.
 *
 * @param total                  chunks planned
 * @param committed              chunks committed, as their lanes counted them
 * @param plannedEstimated       chunks with a row estimate, as recorded at preparation
 * @param plannedEstimatedRows   the sum of those estimates
 * @param committedEstimated     committed chunks that had an estimate when they committed
 * @param committedEstimatedRows the sum of those estimates
 * @param liveEstimatedRows      the estimates of the chunks running under a live lease
 */
public record ProgressCounters(int total, int committed, long rowsExtracted, long rowsLoaded,
                               long plannedEstimated, long plannedEstimatedRows,
                               long committedEstimated, long committedEstimatedRows,
                               int running, int failed, int failedExhausted, long liveEstimatedRows,
                               long committedLastMinuteRows, double secondsSinceFirstStart) {

    /** {@code running}: the live running chunks, in chunk order. */
    public ChunkCounts counts(List<RunningChunk> live) {
        long open = (long) total - committed;
        long unestimated = open - (plannedEstimated - committedEstimated);
        long waitingRows = plannedEstimatedRows - committedEstimatedRows - liveEstimatedRows;
        boolean complete = plannedEstimated > 0 && unestimated == 0;
        return new ChunkCounts(total, total - committed - running - failed, running, committed, failed, failedExhausted,
                rowsExtracted, rowsLoaded, committedLastMinuteRows, Math.max(0, secondsSinceFirstStart),
                new ChunkEstimates(complete, waitingRows, live));
    }
}

package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkEstimates;
import io.dpone.backfill.core.ledger.RunningChunk;

/**
 * The ETA and what it rests on. With row estimates from preparation (ADR 0012) it is estimated rows remaining over
 * the current rate: waiting chunks count in full, a running chunk counts what is left of it after the time it has
 * run at the lanes' measured speed (rows per lane-second of committed chunks), since its copied rows reach the
 * ledger only when it commits. Without estimates (an old ledger) it is today's average: chunks left times the
 * average rows of committed chunks. Null seconds means unknown (nothing committed yet, no rate).
 */
public record Eta(Long seconds, String basis) {
    static final String AVERAGE_BASIS = "average rows of committed chunks (no source estimate)";

    public static Eta of(ChunkCounts c, double rowsPerSecond, String estimateBasis) {
        int remaining = c.total() - c.committed();
        ChunkEstimates e = c.estimates();
        boolean estimated = e.complete() && estimateBasis != null;
        String basis = estimated ? "estimated rows remaining (" + estimateBasis + ")" : AVERAGE_BASIS;
        if (remaining == 0) {
            return new Eta(0L, basis);
        }
        if (rowsPerSecond <= 0 || c.committed() == 0) {
            return new Eta(null, basis);
        }
        if (!estimated) {
            double rowsPerChunk = (double) c.rowsLoaded() / c.committed();
            return new Eta(Math.round(remaining * rowsPerChunk / rowsPerSecond), basis);
        }
        return new Eta(Math.round(rowsRemaining(c) / rowsPerSecond), basis);
    }

    /** Waiting chunks in full, plus what is left of each running chunk at the lanes' measured speed. */
    static double rowsRemaining(ChunkCounts c) {
        ChunkEstimates e = c.estimates();
        double laneRate = e.committedLaneSeconds() > 0 ? c.rowsLoaded() / e.committedLaneSeconds() : 0;
        double left = e.waitingRows();
        for (RunningChunk r : e.running()) {
            long estimate = r.estimatedRows() == null ? 0 : r.estimatedRows();
            left += Math.max(0, estimate - r.secondsRunning() * laneRate);
        }
        return left;
    }
}

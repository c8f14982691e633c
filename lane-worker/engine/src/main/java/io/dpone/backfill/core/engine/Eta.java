package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkEstimates;
import io.dpone.backfill.core.ledger.RunningChunk;

/**
 * The ETA and what it rests on. With row estimates from preparation (ADR 0012) it is estimated rows remaining over
 * the current rate: waiting chunks count in full, a running chunk counts its estimate less the rows its lane
 * reported copied at its last lease renewal. Without estimates (an old ledger) it is the average of before:
 * chunks left times the average rows of committed chunks. Null seconds means unknown (no rate yet).
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
        if (rowsPerSecond <= 0) {
            return new Eta(null, basis);
        }
        if (!estimated) {
            if (c.committed() == 0) {
                return new Eta(null, basis);
            }
            double rowsPerChunk = (double) c.rowsLoaded() / c.committed();
            return new Eta(Math.round(remaining * rowsPerChunk / rowsPerSecond), basis);
        }
        // Rounded up: while estimated rows remain the ETA never says 0 s, which reads as "done".
        return new Eta((long) Math.ceil(rowsRemaining(c) / rowsPerSecond), basis);
    }

    /**
     * The ETA under a row ceiling (issue 28): never sooner than the rows left read at the ceiling. The rows left are
     * the estimate's, or chunks left times the average committed chunk; unknown rows leave the ETA as it is.
     */
    public static Eta underCeiling(Eta eta, ChunkCounts c, long rowsPerSecondCeiling) {
        if (rowsPerSecondCeiling <= 0 || eta.seconds() == null || eta.seconds() == 0) {
            return eta;
        }
        int remaining = c.total() - c.committed();
        double rows = c.estimates().complete() ? rowsRemaining(c)
                : c.committed() > 0 ? remaining * ((double) c.rowsLoaded() / c.committed()) : -1;
        if (rows < 0) {
            return eta;
        }
        long atCeiling = (long) Math.ceil(rows / rowsPerSecondCeiling);
        return atCeiling <= eta.seconds() ? eta
                : new Eta(atCeiling, eta.basis() + "; at the ceiling of " + rowsPerSecondCeiling + " rows/s");
    }

    /**
     * Waiting chunks in full, plus what is left of each running chunk. A chunk that copied more than its estimate
     * (the estimate was low) counts as nothing left rather than negative.
     */
    static double rowsRemaining(ChunkCounts c) {
        ChunkEstimates e = c.estimates();
        double left = e.waitingRows();
        for (RunningChunk r : e.running()) {
            long estimate = r.estimatedRows() == null ? 0 : r.estimatedRows();
            left += Math.max(0, estimate - r.rowsCopied());
        }
        return left;
    }

    /**
     * Rows per second over the last minute (or since the first claim, when the campaign is younger): rows of
     * chunks committed in that window plus the rows running chunks copied in it (a chunk running longer than the
     * window is counted pro rata), so a long chunk in flight does not look like a stall. Before anything moved:
     * the lifetime average, or 0.
     */
    public static double rowsPerSecond(ChunkCounts c) {
        double window = Math.min(60.0, c.secondsSinceFirstStart());
        double recent = c.committedLastMinuteRows();
        for (RunningChunk r : c.estimates().running()) {
            recent += r.secondsRunning() > window ? r.rowsCopied() * window / r.secondsRunning() : r.rowsCopied();
        }
        return recent > 0 && window > 0 ? recent / window
                : c.secondsSinceFirstStart() > 0 ? c.rowsLoaded() / c.secondsSinceFirstStart() : 0;
    }
}

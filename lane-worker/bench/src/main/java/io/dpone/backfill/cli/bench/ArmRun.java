package io.dpone.backfill.cli.bench;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What one run of one arm measured: wall seconds, rows in the target afterwards, each chunk's timing (none for a
 * single stream), source heap pages visited, target log bytes written, and each lane's peak heap after GC (lanes
 * are processes only in the campaign arm); the reconciliation arm adds its passes ({@code reconcile}, else null).
 */
record ArmRun(String arm, int repetition, double seconds, long rows, List<ChunkTiming> chunks, long heapPagesVisited,
              OptionalLong logBytes, List<Long> lanePeakHeapBytes, OptionalDouble contentCheckSeconds,
              OptionalDouble rawReadSeconds, ReconcileTimes reconcile) {
    ArmRun(String arm, int repetition, double seconds, long rows, List<ChunkTiming> chunks, long heapPagesVisited,
           OptionalLong logBytes, List<Long> lanePeakHeapBytes) {
        this(arm, repetition, seconds, rows, chunks, heapPagesVisited, logBytes, lanePeakHeapBytes, OptionalDouble.empty(),
                OptionalDouble.empty(), null);
    }

    ArmRun {
        chunks = List.copyOf(chunks);
        lanePeakHeapBytes = List.copyOf(lanePeakHeapBytes);
    }

    /** The same run with its lanes' peak heaps, which the lanes report when they exit. */
    ArmRun withLanePeakHeaps(List<Long> peaks) {
        return new ArmRun(arm, repetition, seconds, rows, chunks, heapPagesVisited, logBytes, peaks, contentCheckSeconds,
                rawReadSeconds, reconcile);
    }

    /**
     * The same run with the seconds its read-back gate took before publication (ADR 0036), part of its wall time, and
     * the seconds one session then took for a raw read of the published table, outside it.
     */
    ArmRun withContentCheck(OptionalDouble checkSeconds, OptionalDouble rawRead) {
        return new ArmRun(arm, repetition, seconds, rows, chunks, heapPagesVisited, logBytes, lanePeakHeapBytes, checkSeconds,
                rawRead, reconcile);
    }

    /** The same run with the reconciliation passes that followed its load (arm R), outside its seconds. */
    ArmRun withReconcile(ReconcileTimes passes) {
        return new ArmRun(arm, repetition, seconds, rows, chunks, heapPagesVisited, logBytes, lanePeakHeapBytes,
                contentCheckSeconds, rawReadSeconds, passes);
    }

    double rowsPerSecond() {
        return rows / seconds;
    }

    /**
     * Rows over the load span, from the first chunk's start to the last chunk's commit: the rate a ceiling governs
     * (issue 28), without preparation, validation and the swap around it. NaN without chunks.
     */
    double loadRowsPerSecond() {
        if (chunks.isEmpty()) {
            return Double.NaN;
        }
        double start = chunks.stream().mapToDouble(ChunkTiming::startSeconds).min().orElseThrow();
        double end = chunks.stream().mapToDouble(ChunkTiming::endSeconds).max().orElseThrow();
        long loaded = chunks.stream().mapToLong(ChunkTiming::rows).sum();
        return end > start ? loaded / (end - start) : Double.NaN;
    }

    double loadSeconds() {
        return chunks.isEmpty() ? Double.NaN : chunks.stream().mapToDouble(ChunkTiming::endSeconds).max().orElseThrow()
                - chunks.stream().mapToDouble(ChunkTiming::startSeconds).min().orElseThrow();
    }
}

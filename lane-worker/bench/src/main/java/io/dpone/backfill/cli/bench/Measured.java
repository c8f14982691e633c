package io.dpone.backfill.cli.bench;

import java.util.List;
import java.util.OptionalLong;

/** Takes the counters every arm reports around its timed body: wall time, source heap pages, target log bytes. */
final class Measured {
    /** The timed part of an arm: returns its chunk timings. */
    @FunctionalInterface
    interface Body {
        List<ChunkTiming> run() throws Exception;
    }

    private Measured() {
    }

    static ArmRun run(BenchArm arm, ArmContext context, ArmPlace place, int repetition, Body body) throws Exception {
        long pagesBefore = context.source().heapPagesVisited();
        OptionalLong logBefore = place.logBytesWritten();
        long started = System.nanoTime();
        List<ChunkTiming> chunks = body.run();
        double seconds = (System.nanoTime() - started) / 1e9;
        OptionalLong logAfter = place.logBytesWritten();
        long pages = context.source().heapPagesVisited() - pagesBefore;
        OptionalLong log = logBefore.isPresent() && logAfter.isPresent()
                ? OptionalLong.of(logAfter.getAsLong() - logBefore.getAsLong()) : OptionalLong.empty();
        return new ArmRun(arm.code(), repetition, seconds, place.count(), chunks, pages, log, List.of());
    }
}

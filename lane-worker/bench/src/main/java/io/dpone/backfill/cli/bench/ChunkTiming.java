package io.dpone.backfill.cli.bench;

/** One chunk of an arm run: when it started and committed, in seconds since the arm started, and its rows. */
record ChunkTiming(double startSeconds, double endSeconds, long rows) {
    double seconds() {
        return endSeconds - startSeconds;
    }
}

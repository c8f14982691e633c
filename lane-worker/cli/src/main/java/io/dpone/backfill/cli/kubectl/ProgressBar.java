package io.dpone.backfill.cli.kubectl;

/** A fixed-width bar of committed over total chunks: {@code [########------------]  41%}. */
public final class ProgressBar {
    static final int WIDTH = 30;

    private ProgressBar() {
    }

    static String of(long done, long total) {
        if (total <= 0) {
            return "[" + "-".repeat(WIDTH) + "]   0%";
        }
        long clamped = Math.max(0, Math.min(done, total));
        int filled = (int) (clamped * WIDTH / total);
        int percent = (int) (clamped * 100 / total);
        return "[" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "] " + String.format("%3d%%", percent);
    }
}

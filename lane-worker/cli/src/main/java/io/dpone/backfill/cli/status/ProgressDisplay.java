package io.dpone.backfill.cli.status;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignProgress;

import java.io.PrintStream;
import java.time.Duration;

/**
 * The live one-line progress of {@code backfill run}, on stderr: rewritten in place on a terminal; elsewhere (logs,
 * CI) one line per phase change and a heartbeat at least every {@link #HEARTBEAT}.
 */
public final class ProgressDisplay {
    static final Duration HEARTBEAT = Duration.ofSeconds(15);

    private final PrintStream out;
    private final boolean terminal;
    private String lastPhase;
    private long lastPrintedNanos;
    private int lastLength;

    ProgressDisplay(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** On stderr: stdout is for what scripts read (the evidence JSON, a report). */
    public static ProgressDisplay forStderr() {
        return new ProgressDisplay(System.err, System.console() != null);
    }

    public void update(BackfillCampaignStatus status) {
        String line = line(status);
        String phase = String.valueOf(status.getPhase());
        long now = System.nanoTime();
        if (terminal) {
            out.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
            lastLength = line.length();
            if (!phase.equals(lastPhase) && lastPhase != null) {
                out.println();
                lastLength = 0;
            }
            out.flush();
        } else if (!phase.equals(lastPhase) || now - lastPrintedNanos >= HEARTBEAT.toNanos()) {
            out.println(line);
            out.flush();
            lastPrintedNanos = now;
        }
        lastPhase = phase;
    }

    public void finish() {
        if (terminal && lastLength > 0) {
            out.println();
        }
    }

    public static String line(BackfillCampaignStatus status) {
        CampaignProgress p = status.getProgress();
        if (p == null) {
            return "[" + status.getPhase() + "]";
        }
        return String.format("[%s] %d/%d chunks committed (%d running, %d failed), %,d rows, %,.0f rows/s, ETA %s",
                status.getPhase(), p.getCommittedChunks(), p.getTotalChunks(), p.getRunningChunks(), p.getFailedChunks(),
                p.getRowsLoaded(), p.getRowsPerSecond(), eta(p.getEtaSeconds()));
    }

    static String eta(Long seconds) {
        if (seconds == null) {
            return "unknown";
        }
        return String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }
}

package io.dpone.backfill.core.campaign;

/**
 * An ETA in seconds as a person reads it at a glance ({@code 45s}, {@code 8m12s}, {@code 2h05m}, {@code 3d04h}):
 * the printer column and the kubectl plugin show this text; the seconds stay in {@code etaSeconds} for machines.
 */
public final class EtaText {
    private EtaText() {
    }

    /** Null when the ETA is unknown, so the column stays empty rather than claiming a time. */
    public static String of(Long seconds) {
        if (seconds == null) {
            return null;
        }
        long s = Math.max(0, seconds);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format("%dm%02ds", s / 60, s % 60);
        }
        if (s < 86_400) {
            return String.format("%dh%02dm", s / 3600, s / 60 % 60);
        }
        return String.format("%dd%02dh", s / 86_400, s / 3600 % 24);
    }
}

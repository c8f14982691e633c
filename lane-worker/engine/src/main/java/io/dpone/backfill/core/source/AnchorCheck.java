package io.dpone.backfill.core.source;

/** Whether a stored XMin anchor can still seed incremental sync, and if not, why. */
public record AnchorCheck(boolean usable, String reason) {
    public static AnchorCheck ok() {
        return new AnchorCheck(true, "");
    }

    public static AnchorCheck unusable(String reason) {
        return new AnchorCheck(false, reason);
    }
}

package io.dpone.backfill.core.reconcile;

/** What a person decided for a queued key (issue 38). */
public enum KeyDecision {
    /** The next pass writes the source's version (or deletes the row the source no longer has). */
    ACCEPT,
    /** The target's version stays; passes leave the key alone. */
    KEEP;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static KeyDecision fromWire(String wire) {
        return wire == null ? null : valueOf(wire.toUpperCase(java.util.Locale.ROOT));
    }
}

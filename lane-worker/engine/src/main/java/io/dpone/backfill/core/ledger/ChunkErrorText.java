package io.dpone.backfill.core.ledger;

/** A chunk's last error as every ledger stores it: bounded, and readable the same whichever database holds it. */
public final class ChunkErrorText {
    public static final int MAX_CHARS = 2000;

    private ChunkErrorText() {
    }

    /**
     * The first {@value #MAX_CHARS} characters, never splitting a surrogate pair; NUL becomes a space (PostgreSQL
     * text cannot store it).
     */
    public static String bounded(String error) {
        if (error == null) {
            return null;
        }
        String clean = error.replace('\u0000', ' ');
        if (clean.length() <= MAX_CHARS) {
            return clean;
        }
        int end = Character.isHighSurrogate(clean.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
        return clean.substring(0, end);
    }
}

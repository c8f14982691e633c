package io.dpone.backfill.source;

/**
 * Source values that have no Java counterpart in the type of their {@link TypeFamily}. They arrive as these
 * constants, never as a nearby ordinary value, so a target that cannot hold them must refuse them explicitly. Content
 * digests (ADR 0018) encode them by name, so the names are part of the digest and never change.
 */
public enum SpecialValue {
    /** decimal {@code NaN}. (float NaN arrives as Java's own NaN.) */
    NAN,
    /** decimal {@code Infinity}; date, timestamp and timestamp with time zone {@code infinity}. */
    POSITIVE_INFINITY,
    /** decimal {@code -Infinity}; date, timestamp and timestamp with time zone {@code -infinity}. */
    NEGATIVE_INFINITY,
    /** time {@code 24:00:00}, which PostgreSQL accepts and {@link java.time.LocalTime} cannot hold. */
    END_OF_DAY
}

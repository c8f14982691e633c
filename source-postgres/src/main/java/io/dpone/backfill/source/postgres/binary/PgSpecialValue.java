package io.dpone.backfill.source.postgres.binary;

/**
 * PostgreSQL values that have no Java counterpart in the type chosen for their column. They arrive as these
 * constants, never as a nearby ordinary value, so a target that cannot hold them must refuse them explicitly.
 */
public enum PgSpecialValue {
    /** numeric {@code NaN}. (float4/float8 NaN arrives as Java's own NaN.) */
    NAN,
    /** numeric {@code Infinity}; date, timestamp and timestamptz {@code infinity}. */
    POSITIVE_INFINITY,
    /** numeric {@code -Infinity}; date, timestamp and timestamptz {@code -infinity}. */
    NEGATIVE_INFINITY,
    /** time {@code 24:00:00}, which PostgreSQL accepts and {@link java.time.LocalTime} cannot hold. */
    END_OF_DAY
}

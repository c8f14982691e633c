package io.dpone.backfill.source;

/**
 * What kind of value a source column hands a target, whatever the source engine: the target picks its column type,
 * its value guards and how it reads the value back from this, never from the source's own type names. Each family
 * says the Java type its values arrive as in a chunk's rows; a value with no Java counterpart arrives as a
 * {@link SpecialValue} instead.
 */
public enum TypeFamily {
    /** 16-bit integer: {@link Short}. */
    INT16,
    /** 32-bit integer: {@link Integer}. */
    INT32,
    /** 64-bit integer: {@link Long}. */
    INT64,
    /**
     * Exact decimal: {@link java.math.BigDecimal}, or NaN and ±infinity as {@link SpecialValue}s. Precision and
     * scale when declared (scale may be negative); precision -1 when unconstrained.
     */
    DECIMAL,
    /** IEEE single precision: {@link Float}, NaN and infinities as Java's own. */
    FLOAT32,
    /** IEEE double precision: {@link Double}, NaN and infinities as Java's own. */
    FLOAT64,
    /** {@link Boolean}. */
    BOOLEAN,
    /** Varying text: {@link String}; length is the declared maximum in characters, or -1 when unbounded. */
    TEXT,
    /** Text padded with spaces to its declared length in characters: {@link String}, as padded. */
    FIXED_TEXT,
    /** Bytes: {@code byte[]}. */
    BINARY,
    /** Calendar date: {@link java.time.LocalDate}, or ±infinity as {@link SpecialValue}s. */
    DATE,
    /**
     * Time of day without time zone: {@link java.time.LocalTime}, or {@link SpecialValue#END_OF_DAY}; precision is
     * the fractional-second digits.
     */
    TIME,
    /**
     * Date and time without time zone: {@link java.time.LocalDateTime}, or ±infinity; precision is the
     * fractional-second digits.
     */
    TIMESTAMP,
    /**
     * An instant, with time zone: {@link java.time.OffsetDateTime} (at offset zero), or ±infinity; precision is the
     * fractional-second digits.
     */
    TIMESTAMP_TZ,
    /** {@link java.util.UUID}. */
    UUID,
    /** A JSON document as text: {@link String}. */
    JSON,
    /** None of the above: a source loads no such column, but may name one (a key probe's column, for instance). */
    OTHER;

    /** Time values carry at most microseconds: no source hands a finer fraction. */
    public static final int MAX_FRACTION_DIGITS = 6;

    public boolean integer() {
        return this == INT16 || this == INT32 || this == INT64;
    }
}

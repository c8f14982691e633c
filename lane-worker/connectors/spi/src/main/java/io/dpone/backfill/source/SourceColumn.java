package io.dpone.backfill.source;

import java.util.Objects;

/**
 * What a target needs to know of one source column to receive it: its values' {@link TypeFamily} and their bounds.
 * Built by the source from its catalog; the target never reads the source's catalog itself.
 *
 * @param name         the column name as in the source catalog
 * @param declaredType the column's type as the source declares it (e.g. {@code numeric(12,3)}), for messages
 * @param arrivingType the source's name of the type its values arrive as (e.g. {@code int4}), for messages
 * @param family       what the values are
 * @param nullable     whether the source allows NULL
 * @param length       TEXT and FIXED_TEXT: the most characters a value holds; -1 when unbounded or not text
 * @param precision    DECIMAL: total digits, -1 when unconstrained; TIME, TIMESTAMP, TIMESTAMP_TZ: fractional-second
 *                     digits; otherwise -1
 * @param scale        DECIMAL with a precision: digits after the point (negative: rounded to tens, hundreds...);
 *                     otherwise 0
 */
public record SourceColumn(String name, String declaredType, String arrivingType, TypeFamily family, boolean nullable,
                           int length, int precision, int scale) {
    public SourceColumn {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(declaredType, "declaredType");
        Objects.requireNonNull(arrivingType, "arrivingType");
        Objects.requireNonNull(family, "family");
    }

    /** A DECIMAL whose every value fits its declared precision and scale. */
    public boolean constrainedDecimal() {
        return family == TypeFamily.DECIMAL && precision >= 0;
    }
}

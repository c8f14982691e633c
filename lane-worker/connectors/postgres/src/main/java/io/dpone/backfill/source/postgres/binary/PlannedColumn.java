package io.dpone.backfill.source.postgres.binary;

import java.util.Objects;

/**
 * One column of a source plan, as the decoder sees it; {@link TypeFamilies} tells a target what it holds.
 *
 * @param name         the column name as in the catalog
 * @param declaredType the column's declared type as PostgreSQL formats it (e.g. {@code numeric(12,3)}, {@code mood[]})
 * @param kind         how the declared type relates to the type that arrives
 * @param arrivingType the type of the projected expression, which picks the decoder
 * @param typmod       the arriving type's modifier (length, precision/scale) or -1: what a target needs to size the
 *                     column; -1 when an enum or array is cast to text
 * @param projection   the SELECT-list expression that yields {@code arrivingType}
 * @param nullable     whether the column allows NULL (pg_attribute.attnotnull is false)
 */
public record PlannedColumn(String name, String declaredType, Kind kind, PgType arrivingType, int typmod, String projection,
                            boolean nullable) {
    /** How a declared type becomes an accepted arriving type. */
    public enum Kind {
        /** an accepted built-in type, projected as the plain column */
        BASE,
        /** an enum, cast to text on the server */
        ENUM,
        /** an array, cast to text on the server (PostgreSQL's array literal form) */
        ARRAY,
        /** a domain, cast to its base type (or to text when the base is an enum or array) */
        DOMAIN
    }

    public PlannedColumn {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(declaredType, "declaredType");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(arrivingType, "arrivingType");
        Objects.requireNonNull(projection, "projection");
    }

    /** A column that allows NULL. */
    public PlannedColumn(String name, String declaredType, Kind kind, PgType arrivingType, int typmod, String projection) {
        this(name, declaredType, kind, arrivingType, typmod, projection, true);
    }

    public ColumnDecoder decoder() {
        return arrivingType.decoder();
    }
}

package io.dpone.backfill.source.postgres.binary;

import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.source.TypeFamily;

/**
 * What a target learns of a planned PostgreSQL column (the SPI's {@link SourceColumn}): the family of the type its
 * values arrive as, and the bounds its type modifier (atttypmod) encodes. PostgreSQL encodes varchar(n) and
 * bpchar(n) as n + 4, numeric(p,s) as ((p << 16) | s) + 4 with s an 11-bit signed field (negative scales exist since
 * PostgreSQL 15), time(p), timestamp(p) and timestamptz(p) as p itself; -1 means unconstrained.
 */
public final class TypeFamilies {
    /** Four bytes of varlena header, which PostgreSQL adds to length and numeric modifiers. */
    private static final int VARHDRSZ = 4;
    /** name is at most NAMEDATALEN - 1 = 63 bytes, hence at most 63 characters. */
    private static final int NAME_LENGTH = 63;

    private TypeFamilies() {
    }

    /** The family a value of {@code type} belongs to. */
    public static TypeFamily of(PgType type) {
        return switch (type) {
            case INT2 -> TypeFamily.INT16;
            case INT4 -> TypeFamily.INT32;
            case INT8 -> TypeFamily.INT64;
            case NUMERIC -> TypeFamily.DECIMAL;
            case FLOAT4 -> TypeFamily.FLOAT32;
            case FLOAT8 -> TypeFamily.FLOAT64;
            case BOOL -> TypeFamily.BOOLEAN;
            case TEXT, VARCHAR, NAME -> TypeFamily.TEXT;
            case BPCHAR -> TypeFamily.FIXED_TEXT;
            case UUID -> TypeFamily.UUID;
            case DATE -> TypeFamily.DATE;
            case TIME -> TypeFamily.TIME;
            case TIMESTAMP -> TypeFamily.TIMESTAMP;
            case TIMESTAMPTZ -> TypeFamily.TIMESTAMP_TZ;
            case BYTEA -> TypeFamily.BINARY;
            case JSON, JSONB -> TypeFamily.JSON;
        };
    }

    /**
     * The family of a type as {@code format_type(oid, NULL)} names it (a foreign-key probe's column): the built-in
     * types by name, anything else (a domain, an enum, an array) {@link TypeFamily#OTHER}.
     */
    public static TypeFamily ofTypeName(String formatted) {
        return switch (formatted) {
            case "smallint" -> TypeFamily.INT16;
            case "integer" -> TypeFamily.INT32;
            case "bigint" -> TypeFamily.INT64;
            case "numeric" -> TypeFamily.DECIMAL;
            case "real" -> TypeFamily.FLOAT32;
            case "double precision" -> TypeFamily.FLOAT64;
            case "boolean" -> TypeFamily.BOOLEAN;
            case "text", "character varying", "name" -> TypeFamily.TEXT;
            case "character" -> TypeFamily.FIXED_TEXT;
            case "bytea" -> TypeFamily.BINARY;
            case "uuid" -> TypeFamily.UUID;
            case "date" -> TypeFamily.DATE;
            case "time without time zone" -> TypeFamily.TIME;
            case "timestamp without time zone" -> TypeFamily.TIMESTAMP;
            case "timestamp with time zone" -> TypeFamily.TIMESTAMP_TZ;
            case "json", "jsonb" -> TypeFamily.JSON;
            default -> TypeFamily.OTHER;
        };
    }

    /** The SPI's description of a planned column. */
    public static SourceColumn describe(PlannedColumn column) {
        PgType type = column.arrivingType();
        TypeFamily family = of(type);
        int typmod = column.typmod();
        int length = switch (type) {
            case NAME -> NAME_LENGTH;
            case VARCHAR, BPCHAR -> typmod >= VARHDRSZ ? typmod - VARHDRSZ : -1;
            default -> -1;
        };
        int precision = -1;
        int scale = 0;
        if (family == TypeFamily.DECIMAL && typmod >= VARHDRSZ) {
            precision = ((typmod - VARHDRSZ) >> 16) & 0xffff;
            scale = (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;
        } else if (family == TypeFamily.TIME || family == TypeFamily.TIMESTAMP || family == TypeFamily.TIMESTAMP_TZ) {
            // PostgreSQL keeps microseconds: six fractional digits when the type has no modifier.
            precision = typmod >= 0 ? typmod : TypeFamily.MAX_FRACTION_DIGITS;
        }
        return new SourceColumn(column.name(), column.declaredType(), type.typname(), family, column.nullable(), length,
                precision, scale);
    }
}

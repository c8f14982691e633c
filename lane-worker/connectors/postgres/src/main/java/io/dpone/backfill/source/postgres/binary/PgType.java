package io.dpone.backfill.source.postgres.binary;

/**
 * The built-in types a binary COPY field can arrive as, identified by their fixed pg_catalog OIDs (a user type
 * named "int4" in another schema is not int4), each with its decoder and the Java type it decodes to.
 */
public enum PgType {
    INT2(21, "int2", FixedWidthDecoders.INT2),
    INT4(23, "int4", FixedWidthDecoders.INT4),
    INT8(20, "int8", FixedWidthDecoders.INT8),
    NUMERIC(1700, "numeric", NumericDecoder.INSTANCE),
    FLOAT4(700, "float4", FixedWidthDecoders.FLOAT4),
    FLOAT8(701, "float8", FixedWidthDecoders.FLOAT8),
    BOOL(16, "bool", FixedWidthDecoders.BOOL),
    TEXT(25, "text", TextDecoders.TEXT),
    VARCHAR(1043, "varchar", TextDecoders.TEXT),
    BPCHAR(1042, "bpchar", TextDecoders.TEXT),
    NAME(19, "name", TextDecoders.TEXT),
    UUID(2950, "uuid", FixedWidthDecoders.UUID_DECODER),
    DATE(1082, "date", DateTimeDecoders.DATE),
    TIME(1083, "time", DateTimeDecoders.TIME),
    TIMESTAMP(1114, "timestamp", DateTimeDecoders.TIMESTAMP),
    TIMESTAMPTZ(1184, "timestamptz", DateTimeDecoders.TIMESTAMPTZ),
    BYTEA(17, "bytea", TextDecoders.BYTEA),
    JSON(114, "json", TextDecoders.TEXT),
    JSONB(3802, "jsonb", TextDecoders.JSONB);

    private final int oid;
    private final String typname;
    private final ColumnDecoder decoder;

    PgType(int oid, String typname, ColumnDecoder decoder) {
        this.oid = oid;
        this.typname = typname;
        this.decoder = decoder;
    }

    public int oid() {
        return oid;
    }

    public String typname() {
        return typname;
    }

    public ColumnDecoder decoder() {
        return decoder;
    }

    /** The accepted type with this OID, or null. */
    public static PgType byOid(long oid) {
        for (PgType type : values()) {
            if (type.oid == oid) {
                return type;
            }
        }
        return null;
    }
}

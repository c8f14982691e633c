package io.dpone.backfill.targets.mssql.types;

import java.sql.Types;

/**
 * The SQL Server types this loader writes, by their sys.types name, each with the JDBC type code the bulk copy is
 * told the source column has. Types outside this list are refused by the type map.
 */
enum MssqlTargetType {
    SMALLINT("smallint", Types.SMALLINT),
    INT("int", Types.INTEGER),
    BIGINT("bigint", Types.BIGINT),
    DECIMAL("decimal", Types.DECIMAL),
    NUMERIC("numeric", Types.NUMERIC),
    REAL("real", Types.REAL),
    FLOAT("float", Types.DOUBLE),
    BIT("bit", Types.BIT),
    NVARCHAR("nvarchar", Types.NVARCHAR),
    VARCHAR("varchar", Types.VARCHAR),
    /**
     * nchar(n) and char(n) are told the bulk copy as nvarchar(n) and varchar(n): the values arrive already padded to
     * n (only character(n) of the same length loads into them), so the server's conversion to the fixed type adds
     * nothing.
     */
    NCHAR("nchar", Types.NVARCHAR),
    CHAR("char", Types.VARCHAR),
    UNIQUEIDENTIFIER("uniqueidentifier", microsoft.sql.Types.GUID),
    DATE("date", Types.DATE),
    TIME("time", Types.TIME),
    DATETIME2("datetime2", Types.TIMESTAMP),
    DATETIME("datetime", microsoft.sql.Types.DATETIME),
    DATETIMEOFFSET("datetimeoffset", microsoft.sql.Types.DATETIMEOFFSET),
    VARBINARY("varbinary", Types.VARBINARY);

    private final String typeName;
    private final int jdbcType;

    MssqlTargetType(String typeName, int jdbcType) {
        this.typeName = typeName;
        this.jdbcType = jdbcType;
    }

    String typeName() {
        return typeName;
    }

    int jdbcType() {
        return jdbcType;
    }

    /** The type with this sys.types name, or null when the loader does not write it. */
    static MssqlTargetType byName(String typeName) {
        for (MssqlTargetType type : values()) {
            if (type.typeName.equals(typeName)) {
                return type;
            }
        }
        return null;
    }
}

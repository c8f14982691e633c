package io.dpone.backfill.targets.mssql.types;

import java.util.Objects;

/**
 * What an {@code ISQLServerBulkData} reports for one column through getColumnName, getColumnType, getPrecision and
 * getScale. It describes the value {@link MssqlColumnBinding#bulkValue} hands over, which is already in the target
 * column's own type, so the driver never converts numbers or rounds.
 *
 * <p>Temporal values are handed over as text the server parses (see {@link BulkValueConverters}): mssql-jdbc, with
 * its default {@code sendTemporalDataTypesAsStringForBulkCopy=true}, sends DATE, TIME, TIMESTAMP, DATETIME and
 * DATETIMEOFFSET columns of a bulk-data source as varchar built from {@code value.toString()}. The bulk copy
 * connection must keep that default; {@link #REQUIRED_CONNECTION_PROPERTY} says so in the URL.
 *
 * @param name      the target column name, which is also the bulk source column name
 * @param jdbcType  a java.sql.Types (or microsoft.sql.Types) code
 * @param precision digits for numbers, characters or bytes for strings and binary
 * @param scale     decimal places, or fractional-second digits
 */
public record MssqlBulkColumn(String name, int jdbcType, int precision, int scale) {
    /** Appended to the bulk copy URL so a changed driver default cannot switch temporal values to native encoding. */
    public static final String REQUIRED_CONNECTION_PROPERTY = "sendTemporalDataTypesAsStringForBulkCopy=true";

    /** nvarchar(max) holds 2^30 - 1 UTF-16 code units; varchar(max) and varbinary(max) 2^31 - 1 bytes. */
    private static final int NVARCHAR_MAX_CHARACTERS = 1_073_741_823;

    public MssqlBulkColumn {
        Objects.requireNonNull(name, "name");
    }

    static MssqlBulkColumn of(MssqlColumn target, MssqlTargetType type) {
        return switch (type) {
            case SMALLINT -> new MssqlBulkColumn(target.name(), type.jdbcType(), 5, 0);
            case INT -> new MssqlBulkColumn(target.name(), type.jdbcType(), 10, 0);
            case BIGINT -> new MssqlBulkColumn(target.name(), type.jdbcType(), 19, 0);
            case DECIMAL, NUMERIC -> new MssqlBulkColumn(target.name(), type.jdbcType(), target.precision(), target.scale());
            case REAL -> new MssqlBulkColumn(target.name(), type.jdbcType(), 24, 0);
            case FLOAT -> new MssqlBulkColumn(target.name(), type.jdbcType(), 53, 0);
            case BIT -> new MssqlBulkColumn(target.name(), type.jdbcType(), 1, 0);
            case NVARCHAR -> new MssqlBulkColumn(target.name(), type.jdbcType(),
                    target.isMax() ? NVARCHAR_MAX_CHARACTERS : target.declaredLength(), 0);
            case NCHAR, CHAR -> new MssqlBulkColumn(target.name(), type.jdbcType(), target.declaredLength(), 0);
            case VARCHAR, VARBINARY -> new MssqlBulkColumn(target.name(), type.jdbcType(),
                    target.isMax() ? Integer.MAX_VALUE : target.declaredLength(), 0);
            case UNIQUEIDENTIFIER -> new MssqlBulkColumn(target.name(), type.jdbcType(), 36, 0);
            case DATE -> new MssqlBulkColumn(target.name(), type.jdbcType(), 10, 0);
            case TIME -> new MssqlBulkColumn(target.name(), type.jdbcType(), withFraction(8, target.scale()), target.scale());
            case DATETIME2 -> new MssqlBulkColumn(target.name(), type.jdbcType(), withFraction(19, target.scale()), target.scale());
            case DATETIME -> new MssqlBulkColumn(target.name(), type.jdbcType(), 23, 3);
            case DATETIMEOFFSET -> new MssqlBulkColumn(target.name(), type.jdbcType(), withFraction(26, target.scale()),
                    target.scale());
        };
    }

    /** A temporal type's character count: the whole seconds' text plus a point and the fraction, if any. */
    private static int withFraction(int wholeSeconds, int fractionDigits) {
        return fractionDigits == 0 ? wholeSeconds : wholeSeconds + 1 + fractionDigits;
    }
}

package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.source.TypeFamily;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * How {@code verify} reads one published SQL Server column back into the Java value the lane's decoder produced for
 * its source column, so the canonical encoding (ADR 0018) of both sides agrees.
 *
 * <p>Each read names the JDBC type its mssql-jdbc getter asks the column for (SQLServerResultSet, 13.2.1: getLong
 * asks BIGINT, getBigDecimal DECIMAL, getFloat REAL, getDouble DOUBLE, getBoolean BIT, getString CHAR, getBytes
 * BINARY, getObject(LocalDate/LocalTime/LocalDateTime) LOCALDATETIME, getObject(OffsetDateTime) DATETIMEOFFSET). The
 * driver refuses a getter whose JDBC type its conversion table (DataTypes.GetterConversion) does not allow for the
 * column's SQL Server type: datetime2 does not convert to DATETIMEOFFSET, so a timestamptz loaded into datetime2 (as
 * its UTC wall time) is read as a LocalDateTime and put back at offset zero.
 */
public enum MssqlPublishedRead {
    INTEGER("BIGINT"),
    DECIMAL("DECIMAL"),
    FLOAT4("REAL"),
    FLOAT8("DOUBLE"),
    BOOLEAN("BIT"),
    UUID_TEXT("CHAR"),
    DATE("LOCALDATETIME"),
    TIME("LOCALDATETIME"),
    TIMESTAMP("LOCALDATETIME"),
    TIMESTAMPTZ("DATETIMEOFFSET"),
    /** timestamptz loaded into datetime2 as the UTC wall time. */
    UTC_TIMESTAMP_AS_TIMESTAMPTZ("LOCALDATETIME"),
    BYTES("BINARY"),
    TEXT("CHAR");

    private final String driverJdbcType;

    MssqlPublishedRead(String driverJdbcType) {
        this.driverJdbcType = driverJdbcType;
    }

    /**
     * The read for a source column's type family and the published column's SQL Server type name (as
     * ResultSetMetaData.getColumnTypeName gives it, e.g. {@code datetime2}).
     */
    public static MssqlPublishedRead of(TypeFamily source, String targetTypeName) {
        return switch (source) {
            case INT16, INT32, INT64 -> INTEGER;
            case DECIMAL -> DECIMAL;
            case FLOAT32 -> FLOAT4;
            case FLOAT64 -> FLOAT8;
            case BOOLEAN -> BOOLEAN;
            case UUID -> UUID_TEXT;
            case DATE -> DATE;
            case TIME -> TIME;
            case TIMESTAMP -> TIMESTAMP;
            case TIMESTAMP_TZ -> "datetime2".equalsIgnoreCase(targetTypeName) ? UTC_TIMESTAMP_AS_TIMESTAMPTZ : TIMESTAMPTZ;
            case BINARY -> BYTES;
            case TEXT, FIXED_TEXT, JSON -> TEXT;
            case OTHER -> throw new IllegalArgumentException("a source column of no known type family was never loaded");
        };
    }

    /** The java.sql / mssql-jdbc JDBCType name the getter this read uses asks the driver for. */
    public String driverJdbcType() {
        return driverJdbcType;
    }

    /** The column's value as the lane decoded it, or null. */
    public Object read(ResultSet rs, int column) throws SQLException {
        Object value = switch (this) {
            case INTEGER -> rs.getLong(column);
            case DECIMAL -> rs.getBigDecimal(column);
            case FLOAT4 -> rs.getFloat(column);
            case FLOAT8 -> rs.getDouble(column);
            case BOOLEAN -> rs.getBoolean(column);
            case UUID_TEXT -> {
                String text = rs.getString(column);
                yield text == null ? null : UUID.fromString(text);
            }
            case DATE -> rs.getObject(column, LocalDate.class);
            case TIME -> rs.getObject(column, LocalTime.class);
            case TIMESTAMP -> rs.getObject(column, LocalDateTime.class);
            case TIMESTAMPTZ -> rs.getObject(column, OffsetDateTime.class);
            case UTC_TIMESTAMP_AS_TIMESTAMPTZ -> {
                LocalDateTime utc = rs.getObject(column, LocalDateTime.class);
                yield utc == null ? null : utc.atOffset(ZoneOffset.UTC);
            }
            case BYTES -> rs.getBytes(column);
            case TEXT -> rs.getString(column);
        };
        return rs.wasNull() ? null : value;
    }
}

package io.dpone.backfill.target.mssql.types;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.UUID;

/**
 * The objects SQLServerBulkCopy (mssql-jdbc 13.2) accepts from an ISQLServerBulkData for each reported JDBC type:
 * it casts INTEGER to Integer, BIGINT to Long, DOUBLE to Double, REAL to Float, BIT to Boolean, DECIMAL to
 * BigDecimal (rounding half-up to the scale, which the guards make a no-op), takes String for NVARCHAR, VARCHAR and
 * GUID and byte[] for VARBINARY.
 *
 * <p>Temporal values become text in a form the server parses independently of language and DATEFORMAT, because the
 * driver sends DATE, TIME, TIMESTAMP, DATETIME and DATETIMEOFFSET of a bulk-data source as varchar made by
 * {@code toString()} (see {@link MssqlBulkColumn#REQUIRED_CONNECTION_PROPERTY}). Formatting the text here, from the
 * decoded java.time value, keeps the JVM's time zone out: a java.sql.Timestamp would be built in it, and a wall time
 * in its daylight-saving gap would move by an hour.
 */
final class BulkValueConverters {
    /** ISO 8601 with a space, seven fractional digits: unambiguous for date, time, datetime2 and datetimeoffset. */
    private static final DateTimeFormatter DATETIME2_TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSS");
    private static final DateTimeFormatter DATE_TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd");
    private static final DateTimeFormatter TIME_TEXT = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSSS");
    /** datetime reads 'yyyy-MM-dd hh:mm' per DATEFORMAT; only the 'T' form is read the same under every setting. */
    private static final DateTimeFormatter DATETIME_TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS");
    private static final DateTimeFormatter DATETIMEOFFSET_TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSS xxx");

    static final BulkValueConverter AS_IS = decoded -> decoded;
    static final BulkValueConverter TO_SHORT = decoded -> ((Number) decoded).shortValue();
    static final BulkValueConverter TO_INTEGER = decoded -> ((Number) decoded).intValue();
    static final BulkValueConverter TO_LONG = decoded -> ((Number) decoded).longValue();
    /** float4 widens to float8 exactly, as PostgreSQL's own float4::float8 cast does. */
    static final BulkValueConverter TO_DOUBLE = decoded -> ((Number) decoded).doubleValue();
    static final BulkValueConverter UUID_TEXT = decoded -> ((UUID) decoded).toString();
    static final BulkValueConverter DATE = decoded -> DATE_TEXT.format((LocalDate) decoded);
    static final BulkValueConverter TIME = decoded -> TIME_TEXT.format((LocalTime) decoded);
    static final BulkValueConverter DATETIME2 = decoded -> DATETIME2_TEXT.format((LocalDateTime) decoded);
    static final BulkValueConverter DATETIME = decoded -> DATETIME_TEXT.format((LocalDateTime) decoded);
    static final BulkValueConverter DATETIMEOFFSET = decoded -> DATETIMEOFFSET_TEXT.format((OffsetDateTime) decoded);
    /** timestamptz into datetime2: the UTC wall time. */
    static final BulkValueConverter UTC_DATETIME2 = decoded -> DATETIME2_TEXT.format(
            ((OffsetDateTime) decoded).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());

    private BulkValueConverters() {
    }

    /**
     * A number at exactly the target's scale. Integers come from int2/int4/int8; a BigDecimal has passed the
     * decimal-places guard, so UNNECESSARY only drops zeros and would throw rather than round.
     */
    static BulkValueConverter toDecimal(int scale) {
        return decoded -> {
            BigDecimal number = decoded instanceof BigDecimal d ? d : BigDecimal.valueOf(((Number) decoded).longValue());
            return number.setScale(scale, RoundingMode.UNNECESSARY);
        };
    }
}

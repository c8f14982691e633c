package io.dpone.backfill.targets.mssql.types;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;
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
 *
 * <p>The text carries exactly the target's fractional-second digits (its scale p), no more: the driver declares the
 * column {@code varchar(length)} in INSERT BULK from the length {@link MssqlBulkColumn} reports, 8/19/26 + 1 + p, and
 * writes the text with its own length (SQLServerBulkCopy.writeTypeInfo / getDestTypeFromSrcType /
 * writeColumnToTdsWriter, mssql-jdbc 13.2.1); text longer than the declared length is refused by the server (4815).
 * No digit is dropped: the type map accepts a target only when p is at least the source's digits, and
 * {@link TemporalGuards#fractionFits} refuses a value with more.
 */
final class BulkValueConverters {
    private static final DateTimeFormatter DATE_TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd");
    /** datetime reads 'yyyy-MM-dd hh:mm' per DATEFORMAT; only the 'T' form is read the same under every setting. */
    private static final DateTimeFormatter DATETIME_TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS");

    static final BulkValueConverter AS_IS = decoded -> decoded;
    static final BulkValueConverter TO_SHORT = decoded -> ((Number) decoded).shortValue();
    static final BulkValueConverter TO_INTEGER = decoded -> ((Number) decoded).intValue();
    static final BulkValueConverter TO_LONG = decoded -> ((Number) decoded).longValue();
    /** float4 widens to float8 exactly, as PostgreSQL's own float4::float8 cast does. */
    static final BulkValueConverter TO_DOUBLE = decoded -> ((Number) decoded).doubleValue();
    static final BulkValueConverter UUID_TEXT = decoded -> ((UUID) decoded).toString();
    static final BulkValueConverter DATE = decoded -> DATE_TEXT.format((LocalDate) decoded);
    static final BulkValueConverter DATETIME = decoded -> DATETIME_TEXT.format((LocalDateTime) decoded);

    /** time(p): {@code HH:mm:ss[.f{p}]}. */
    static BulkValueConverter time(int scale) {
        DateTimeFormatter format = withFraction("HH:mm:ss", scale, "");
        return decoded -> format.format((LocalTime) decoded);
    }

    /** datetime2(p): ISO 8601 with a space, {@code uuuu-MM-dd HH:mm:ss[.f{p}]}. */
    static BulkValueConverter datetime2(int scale) {
        DateTimeFormatter format = withFraction("uuuu-MM-dd HH:mm:ss", scale, "");
        return decoded -> format.format((LocalDateTime) decoded);
    }

    /** datetimeoffset(p): {@code uuuu-MM-dd HH:mm:ss[.f{p}] +hh:mm}. */
    static BulkValueConverter datetimeoffset(int scale) {
        DateTimeFormatter format = withFraction("uuuu-MM-dd HH:mm:ss", scale, " xxx");
        return decoded -> format.format((OffsetDateTime) decoded);
    }

    /** timestamptz into datetime2(p): the UTC wall time. */
    static BulkValueConverter utcDatetime2(int scale) {
        DateTimeFormatter format = withFraction("uuuu-MM-dd HH:mm:ss", scale, "");
        return decoded -> format.format(((OffsetDateTime) decoded).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
    }

    /** The whole seconds, then a point and exactly {@code scale} digits when the scale is not 0, then the suffix. */
    private static DateTimeFormatter withFraction(String wholeSeconds, int scale, String suffix) {
        DateTimeFormatterBuilder builder = new DateTimeFormatterBuilder().appendPattern(wholeSeconds);
        if (scale > 0) {
            builder.appendFraction(ChronoField.NANO_OF_SECOND, scale, scale, true);
        }
        if (!suffix.isEmpty()) {
            builder.appendPattern(suffix);
        }
        return builder.toFormatter(Locale.ROOT);
    }

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

package io.dpone.backfill.targets.mssql.types;

import io.dpone.backfill.source.SpecialValue;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Value guards of dates and times. PostgreSQL dates run from 4713 BC to 5874897 AD and have ±infinity and 24:00;
 * SQL Server's date, datetime2 and datetimeoffset run from 0001-01-01 to 9999-12-31, datetime from 1753 with
 * 1/300-second ticks, and time ends before 24:00.
 */
final class TemporalGuards {
    static final LocalDate FIRST_DATE = LocalDate.of(1, 1, 1);
    static final LocalDate LAST_DATE = LocalDate.of(9999, 12, 31);
    static final LocalDateTime FIRST_DATETIME2 = FIRST_DATE.atStartOfDay();
    static final LocalDateTime LAST_DATETIME2 = LocalDateTime.of(LAST_DATE, LocalTime.of(23, 59, 59, 999_999_900));
    static final LocalDateTime FIRST_DATETIME = LocalDateTime.of(1753, 1, 1, 0, 0);
    static final LocalDateTime LAST_DATETIME = LocalDateTime.of(LAST_DATE, LocalTime.of(23, 59, 59, 997_000_000));
    /** datetimeoffset accepts offsets from -14:00 to +14:00. */
    static final int MAX_OFFSET_SECONDS = 14 * 3600;

    static final ValueGuard FINITE = new ValueGuard("SQL Server has no -infinity or infinity date or time",
            value -> value != SpecialValue.POSITIVE_INFINITY && value != SpecialValue.NEGATIVE_INFINITY);

    static final ValueGuard DATE_RANGE = new ValueGuard("date must lie within 0001-01-01..9999-12-31",
            value -> value instanceof LocalDate date && !date.isBefore(FIRST_DATE) && !date.isAfter(LAST_DATE));

    static final ValueGuard DATETIME2_RANGE = new ValueGuard(
            "datetime2 must lie within 0001-01-01 00:00:00..9999-12-31 23:59:59.9999999",
            value -> value instanceof LocalDateTime at && inDatetime2Range(at));

    /** timestamptz arrives at offset zero; a datetime2 target receives it as that UTC wall time. */
    static final ValueGuard UTC_DATETIME2_RANGE = new ValueGuard(
            "the UTC time must lie within 0001-01-01 00:00:00..9999-12-31 23:59:59.9999999",
            value -> value instanceof OffsetDateTime at && inDatetime2Range(at.withOffsetSameInstant(ZoneOffset.UTC)
                    .toLocalDateTime()));

    static final ValueGuard DATETIME_RANGE = new ValueGuard(
            "datetime must lie within 1753-01-01 00:00:00..9999-12-31 23:59:59.997",
            value -> value instanceof LocalDateTime at && !at.isBefore(FIRST_DATETIME) && !at.isAfter(LAST_DATETIME));

    /**
     * datetime stores 1/300-second ticks and rounds anything else; exactly representable (and read back equal)
     * are whole milliseconds ending in 0, 3 or 7.
     */
    static final ValueGuard DATETIME_TICKS = new ValueGuard(
            "datetime keeps 1/300 seconds: the fraction must be whole milliseconds ending in 0, 3 or 7",
            value -> value instanceof LocalDateTime at && datetimeTick(at.getNano()));

    static final ValueGuard OFFSET_RANGE = new ValueGuard("datetimeoffset offsets lie within -14:00..+14:00",
            value -> value instanceof OffsetDateTime at && Math.abs(at.getOffset().getTotalSeconds()) <= MAX_OFFSET_SECONDS);

    /** SQL Server checks both the UTC time and the local time at the offset against the datetime2 range. */
    static final ValueGuard DATETIMEOFFSET_RANGE = new ValueGuard(
            "datetimeoffset must lie within 0001-01-01..9999-12-31 both in UTC and at its offset",
            value -> value instanceof OffsetDateTime at && inDatetime2Range(at.toLocalDateTime())
                    && inDatetime2Range(at.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()));

    static final ValueGuard BEFORE_END_OF_DAY = new ValueGuard(
            "SQL Server time ends at 23:59:59.9999999; PostgreSQL's 24:00:00 has no counterpart",
            value -> value instanceof LocalTime);

    /**
     * time(p), datetime2(p) and datetimeoffset(p) keep p fractional-second digits. The type map already asks p to be
     * at least the source's digits, so this only catches a value with more digits than its source column declares:
     * it fails the chunk rather than letting the text lose a digit or the server round it.
     */
    static ValueGuard fractionFits(int scale) {
        long unit = 1;
        for (int i = scale; i < 9; i++) {
            unit *= 10;
        }
        long nanosPerDigit = unit;
        return new ValueGuard("the target keeps " + scale + " fractional-second digits; the value has more",
                value -> nanos(value) % nanosPerDigit == 0);
    }

    private TemporalGuards() {
    }

    private static long nanos(Object value) {
        if (value instanceof LocalTime time) {
            return time.getNano();
        }
        if (value instanceof LocalDateTime at) {
            return at.getNano();
        }
        if (value instanceof OffsetDateTime at) {
            return at.getNano();
        }
        return -1;
    }

    private static boolean inDatetime2Range(LocalDateTime at) {
        return !at.isBefore(FIRST_DATETIME2) && !at.isAfter(LAST_DATETIME2);
    }

    private static boolean datetimeTick(int nanos) {
        if (nanos % 1_000_000 != 0) {
            return false;
        }
        int lastDigit = (nanos / 1_000_000) % 10;
        return lastDigit == 0 || lastDigit == 3 || lastDigit == 7;
    }
}

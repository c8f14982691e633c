package io.dpone.backfill.source.postgres.binary;

import io.dpone.backfill.source.SpecialValue;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * Decoders of date, time, timestamp and timestamptz. PostgreSQL counts days and microseconds from 2000-01-01;
 * the extreme int32/int64 values mean -infinity/infinity. Both sides use the proleptic Gregorian calendar, so BC
 * dates map to java.time years <= 0 (1 BC is year 0).
 */
final class DateTimeDecoders {
    private static final long PG_EPOCH_DAY = LocalDate.of(2000, 1, 1).toEpochDay();
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    static final ColumnDecoder DATE = (b, off, len) -> {
        FixedWidthDecoders.expectLength("date", 4, len);
        int days = FixedWidthDecoders.int32(b, off);
        if (days == Integer.MAX_VALUE) {
            return SpecialValue.POSITIVE_INFINITY;
        }
        if (days == Integer.MIN_VALUE) {
            return SpecialValue.NEGATIVE_INFINITY;
        }
        return LocalDate.ofEpochDay(PG_EPOCH_DAY + days);
    };

    static final ColumnDecoder TIME = (b, off, len) -> {
        FixedWidthDecoders.expectLength("time", 8, len);
        long micros = FixedWidthDecoders.int64(b, off);
        if (micros == MICROS_PER_DAY) {
            return SpecialValue.END_OF_DAY;
        }
        if (micros < 0 || micros > MICROS_PER_DAY) {
            throw new BinaryCopyFormatException("time field of " + micros + " microseconds is outside one day");
        }
        return LocalTime.ofNanoOfDay(micros * 1000);
    };

    static final ColumnDecoder TIMESTAMP = (b, off, len) -> {
        FixedWidthDecoders.expectLength("timestamp", 8, len);
        long micros = FixedWidthDecoders.int64(b, off);
        Object special = infinity(micros);
        return special != null ? special : localDateTime(micros);
    };

    /** timestamptz is sent as UTC microseconds whatever the session's TimeZone; it arrives as an offset of zero. */
    static final ColumnDecoder TIMESTAMPTZ = (b, off, len) -> {
        FixedWidthDecoders.expectLength("timestamptz", 8, len);
        long micros = FixedWidthDecoders.int64(b, off);
        Object special = infinity(micros);
        return special != null ? special : localDateTime(micros).atOffset(ZoneOffset.UTC);
    };

    private DateTimeDecoders() {
    }

    private static Object infinity(long micros) {
        if (micros == Long.MAX_VALUE) {
            return SpecialValue.POSITIVE_INFINITY;
        }
        if (micros == Long.MIN_VALUE) {
            return SpecialValue.NEGATIVE_INFINITY;
        }
        return null;
    }

    private static LocalDateTime localDateTime(long micros) {
        long days = Math.floorDiv(micros, MICROS_PER_DAY);
        long microOfDay = Math.floorMod(micros, MICROS_PER_DAY);
        return LocalDateTime.of(LocalDate.ofEpochDay(PG_EPOCH_DAY + days), LocalTime.ofNanoOfDay(microOfDay * 1000));
    }
}

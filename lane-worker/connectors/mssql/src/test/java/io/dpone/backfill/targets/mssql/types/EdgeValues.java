package io.dpone.backfill.targets.mssql.types;

import io.dpone.backfill.source.SpecialValue;
import io.dpone.backfill.source.SourceColumn;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The decoded values a source column can deliver at the edges of its type, in the Java forms the binary COPY decoder
 * produces (Short/Integer/Long, BigDecimal at the column's scale, java.time values, timestamptz at offset zero,
 * character(n) padded to n, SpecialValue for infinities, NaN and 24:00). Values the target cannot hold are included
 * on purpose: the guards must stop them before the driver sees them.
 */
final class EdgeValues {
    /** Text lengths around every declared length the contract tries (1, 4, 10, 63, 4000, 8000) and beyond. */
    private static final int[] TEXT_LENGTHS = {0, 1, 2, 3, 4, 5, 9, 10, 11, 62, 63, 64, 3999, 4000, 4001, 7999, 8000, 8001, 9000};
    /** One, two, three and four UTF-8 bytes; the last is two UTF-16 code units. */
    private static final String[] CHARACTERS = {"a", "é", "€", "😀"};

    private EdgeValues() {
    }

    static List<Object> of(SourceColumn source) {
        return switch (source.family()) {
            case INT16 -> List.of(Short.MIN_VALUE, Short.MAX_VALUE, (short) 0);
            case INT32 -> List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, 0);
            case INT64 -> List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L);
            case DECIMAL -> numeric(source);
            case FLOAT32 -> List.of(Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, Float.MIN_NORMAL, -0f, 1.1f,
                    Float.NaN, Float.POSITIVE_INFINITY);
            case FLOAT64 -> List.of(Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, Double.MIN_NORMAL, -0d,
                    Math.PI, Double.NaN, Double.NEGATIVE_INFINITY);
            case BOOLEAN -> List.of(true, false);
            case UUID -> List.of(new UUID(0, 0), new UUID(-1, -1), UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"));
            // PostgreSQL's name holds 63 bytes, not characters.
            case TEXT, JSON -> "name".equals(source.arrivingType())
                    ? text(63, false).stream().filter(v -> ((String) v).getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= 63).toList()
                    : text(source.length(), false);
            case FIXED_TEXT -> text(source.length(), true);
            case BINARY -> List.of(new byte[0], new byte[1], new byte[15], new byte[16], new byte[17], new byte[8000],
                    new byte[8001], new byte[9000]);
            case DATE -> List.of(LocalDate.of(1, 1, 1), LocalDate.of(9999, 12, 31), LocalDate.of(2024, 2, 29),
                    LocalDate.of(-4712, 1, 1), LocalDate.of(10000, 1, 1), SpecialValue.POSITIVE_INFINITY,
                    SpecialValue.NEGATIVE_INFINITY);
            case TIME -> time(source.precision());
            case TIMESTAMP -> timestamps(source.precision());
            case TIMESTAMP_TZ -> timestamptz(source.precision());
            case OTHER -> throw new IllegalArgumentException("no source hands over a value of no family: " + source);
        };
    }

    /** The largest nanosecond fraction a source of {@code digits} fractional digits holds. */
    static int maxFraction(int digits) {
        int unit = BigInteger.TEN.pow(9 - digits).intValueExact();
        return 999_999_999 - 999_999_999 % unit;
    }

    private static List<Object> numeric(SourceColumn source) {
        List<Object> values = new ArrayList<>();
        if (source.constrainedDecimal()) {
            int p = source.precision();
            int s = source.scale();
            BigDecimal max = new BigDecimal(BigInteger.TEN.pow(p).subtract(BigInteger.ONE), s);
            values.add(max);
            values.add(max.negate());
            values.add(new BigDecimal(BigInteger.ONE, s));
            values.add(new BigDecimal(BigInteger.ZERO, Math.max(s, 0)));
        } else {
            BigDecimal nines = new BigDecimal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE));
            values.add(nines);
            values.add(nines.negate());
            values.add(new BigDecimal(BigInteger.ONE, 38));
            values.add(new BigDecimal(BigInteger.ONE, 7));
            values.add(new BigDecimal("-0.5"));
            values.add(new BigDecimal("12345.6789"));
            values.add(new BigDecimal("1E+2"));
            values.add(new BigDecimal("4294967296.00"));
            values.add(BigDecimal.ZERO);
            values.add(new BigDecimal(BigInteger.TEN.pow(38)));
            values.add(SpecialValue.NAN);
        }
        return values;
    }

    /** Strings of every tried length in every character width; character(n) values padded to n characters. */
    private static List<Object> text(int sourceLength, boolean padded) {
        List<Object> values = new ArrayList<>();
        for (String character : CHARACTERS) {
            for (int length : TEXT_LENGTHS) {
                if (sourceLength >= 0 && length > sourceLength) {
                    continue;
                }
                String text = character.repeat(length);
                if (padded && sourceLength >= 0) {
                    text = text + " ".repeat(sourceLength - length);
                }
                values.add(text);
            }
            if (sourceLength > 1) {
                StringBuilder mixed = new StringBuilder();
                for (int i = 0; i < sourceLength; i++) {
                    mixed.append(i % 2 == 0 ? "x" : character);
                }
                values.add(mixed.toString());
            }
        }
        return values;
    }

    private static List<Object> time(int digits) {
        return List.of(LocalTime.MIDNIGHT, LocalTime.of(23, 59, 59, maxFraction(digits)), LocalTime.of(12, 34, 56),
                LocalTime.of(12, 34, 56, 123_456_000), SpecialValue.END_OF_DAY);
    }

    private static List<Object> timestamps(int digits) {
        List<Object> values = new ArrayList<>();
        for (LocalDateTime at : localTimestamps(digits)) {
            values.add(at);
        }
        values.add(SpecialValue.POSITIVE_INFINITY);
        values.add(SpecialValue.NEGATIVE_INFINITY);
        return values;
    }

    /** The decoder delivers timestamptz at offset zero; other offsets (-14:00..+14:00) are tried too. */
    private static List<Object> timestamptz(int digits) {
        List<Object> values = new ArrayList<>();
        for (LocalDateTime at : localTimestamps(digits)) {
            values.add(at.atOffset(ZoneOffset.UTC));
            values.add(at.atOffset(ZoneOffset.ofHours(-14)));
            values.add(at.atOffset(ZoneOffset.ofHoursMinutes(-3, -30)));
            values.add(at.atOffset(ZoneOffset.ofHours(14)));
        }
        values.add(SpecialValue.POSITIVE_INFINITY);
        values.add(SpecialValue.NEGATIVE_INFINITY);
        return values;
    }

    private static List<LocalDateTime> localTimestamps(int digits) {
        List<LocalDateTime> values = new ArrayList<>(List.of(
                LocalDateTime.of(1, 1, 1, 0, 0),
                LocalDateTime.of(9999, 12, 31, 23, 59, 59, maxFraction(digits)),
                LocalDateTime.of(1753, 1, 1, 0, 0),
                LocalDateTime.of(0, 12, 31, 23, 59, 59),
                LocalDateTime.of(10000, 1, 1, 0, 0),
                LocalDateTime.of(2024, 2, 29, 12, 0, 0)));
        if (digits >= 3) {
            values.add(LocalDateTime.of(2024, 2, 29, 12, 0, 0, 3_000_000));
            values.add(LocalDateTime.of(2024, 2, 29, 12, 0, 0, 7_000_000));
            values.add(LocalDateTime.of(2024, 2, 29, 12, 0, 0, 1_000_000));
        }
        if (digits >= 1) {
            values.add(LocalDateTime.of(2024, 2, 29, 12, 0, 0, 100_000_000));
        }
        // More digits than the column declares: the decoder never delivers this, the guards must still stop it.
        values.add(LocalDateTime.of(2024, 2, 29, 12, 0, 0, 123_456_000));
        return values;
    }
}

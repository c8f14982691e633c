package io.dpone.backfill.source.postgres.binary;

import io.dpone.backfill.source.SpecialValue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * Renders a decoded value exactly as PostgreSQL prints {@code col::text} in a session with DateStyle ISO,
 * TimeZone UTC, extra_float_digits 1 (the PostgreSQL 12+ default) and bytea_output hex, so a digest over rendered
 * values can be compared with one PostgreSQL computes itself. NULL renders as null.
 */
public final class PgTextRendering {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PgTextRendering() {
    }

    public static String render(PgType type, Object value) {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case INT2 -> as(Short.class, type, value).toString();
            case INT4 -> as(Integer.class, type, value).toString();
            case INT8 -> as(Long.class, type, value).toString();
            case BOOL -> as(Boolean.class, type, value).toString();
            case NUMERIC -> numeric(value);
            case FLOAT4 -> ShortestFloatText.ofFloat(as(Float.class, type, value));
            case FLOAT8 -> ShortestFloatText.ofDouble(as(Double.class, type, value));
            case TEXT, VARCHAR, NAME, JSON, JSONB -> as(String.class, type, value);
            // bpchar::text drops the padding spaces (and only spaces) that the binary value keeps.
            case BPCHAR -> stripTrailingSpaces(as(String.class, type, value));
            case UUID -> as(UUID.class, type, value).toString();
            case DATE -> value instanceof SpecialValue special ? infinity(type, special) : date(as(LocalDate.class, type, value));
            case TIME -> value == SpecialValue.END_OF_DAY ? "24:00:00" : time(as(LocalTime.class, type, value));
            case TIMESTAMP -> value instanceof SpecialValue special ? infinity(type, special)
                    : timestamp(as(LocalDateTime.class, type, value), "");
            case TIMESTAMPTZ -> value instanceof SpecialValue special ? infinity(type, special)
                    : timestamp(as(OffsetDateTime.class, type, value).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime(), "+00");
            case BYTEA -> hex(as(byte[].class, type, value));
        };
    }

    private static String numeric(Object value) {
        if (value instanceof SpecialValue special) {
            return switch (special) {
                case NAN -> "NaN";
                case POSITIVE_INFINITY -> "Infinity";
                case NEGATIVE_INFINITY -> "-Infinity";
                case END_OF_DAY -> throw mismatch(PgType.NUMERIC, value);
            };
        }
        return as(BigDecimal.class, PgType.NUMERIC, value).toPlainString();
    }

    private static String infinity(PgType type, SpecialValue special) {
        return switch (special) {
            case POSITIVE_INFINITY -> "infinity";
            case NEGATIVE_INFINITY -> "-infinity";
            default -> throw mismatch(type, special);
        };
    }

    private static String date(LocalDate date) {
        StringBuilder out = new StringBuilder(16);
        appendDate(out, date);
        if (date.getYear() <= 0) {
            out.append(" BC");
        }
        return out.toString();
    }

    private static String timestamp(LocalDateTime value, String zone) {
        StringBuilder out = new StringBuilder(40);
        appendDate(out, value.toLocalDate());
        out.append(' ');
        appendTime(out, value.toLocalTime());
        out.append(zone);
        if (value.getYear() <= 0) {
            out.append(" BC");
        }
        return out.toString();
    }

    private static String time(LocalTime time) {
        StringBuilder out = new StringBuilder(16);
        appendTime(out, time);
        return out.toString();
    }

    /** Years as PostgreSQL counts them: at least four digits, no year zero (java.time year 0 is 1 BC). */
    private static void appendDate(StringBuilder out, LocalDate date) {
        int year = date.getYear();
        String shown = Integer.toString(year <= 0 ? 1 - year : year);
        out.append("0".repeat(Math.max(0, 4 - shown.length()))).append(shown).append('-');
        twoDigits(out, date.getMonthValue()).append('-');
        twoDigits(out, date.getDayOfMonth());
    }

    /** hh:mm:ss, then the microseconds without trailing zeros, if any. */
    private static void appendTime(StringBuilder out, LocalTime time) {
        twoDigits(out, time.getHour()).append(':');
        twoDigits(out, time.getMinute()).append(':');
        twoDigits(out, time.getSecond());
        int micros = time.getNano() / 1000;
        if (micros != 0) {
            String fraction = Integer.toString(1_000_000 + micros).substring(1);
            int end = fraction.length();
            while (fraction.charAt(end - 1) == '0') {
                end--;
            }
            out.append('.').append(fraction, 0, end);
        }
    }

    private static StringBuilder twoDigits(StringBuilder out, int value) {
        return out.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    private static String stripTrailingSpaces(String value) {
        int end = value.length();
        while (end > 0 && value.charAt(end - 1) == ' ') {
            end--;
        }
        return value.substring(0, end);
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder(2 + 2 * bytes.length).append("\\x");
        for (byte b : bytes) {
            out.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
        }
        return out.toString();
    }

    private static <T> T as(Class<T> expected, PgType type, Object value) {
        if (!expected.isInstance(value)) {
            throw mismatch(type, value);
        }
        return expected.cast(value);
    }

    private static IllegalArgumentException mismatch(PgType type, Object value) {
        return new IllegalArgumentException("a " + type.typname() + " value cannot be a " + value.getClass().getSimpleName()
                + " (" + value + ")");
    }
}

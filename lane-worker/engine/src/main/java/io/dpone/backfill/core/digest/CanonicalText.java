package io.dpone.backfill.core.digest;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.UUID;

/**
 * One canonical field ({@link ContentDigester}'s encoding: family tag, 4-byte length, bytes) as a person reads it,
 * for a message that names a differing key or value. Long values are cut, so a message stays one line.
 */
public final class CanonicalText {
    private static final int MAX = 120;

    private CanonicalText() {
    }

    public static String of(byte[] field) {
        ByteBuffer b = ByteBuffer.wrap(field);
        byte tag = b.get();
        int length = b.getInt();
        if (length < 0) {
            return "NULL";
        }
        byte[] bytes = Arrays.copyOfRange(field, 5, 5 + length);
        ByteBuffer v = ByteBuffer.wrap(bytes);
        String text = switch (family(tag)) {
            case INTEGER -> Long.toString(v.getLong());
            case NUMERIC -> new BigDecimal(new BigInteger(Arrays.copyOfRange(bytes, 4, bytes.length)), v.getInt()).toPlainString();
            case FLOAT4 -> Float.toString(Float.intBitsToFloat(v.getInt()));
            case FLOAT8 -> Double.toString(Double.longBitsToDouble(v.getLong()));
            case BOOL -> bytes[0] == 0 ? "false" : "true";
            case TEXT -> "'" + new String(bytes, StandardCharsets.UTF_8) + "'";
            case UUID -> new UUID(v.getLong(), v.getLong()).toString();
            case DATE -> date(v.getLong());
            case TIME -> LocalTime.ofNanoOfDay(v.getLong() * 1000).toString();
            case TIMESTAMP -> LocalDateTime.ofInstant(instant(v.getLong()), ZoneOffset.UTC).toString();
            case TIMESTAMPTZ -> instant(v.getLong()).toString();
            case BYTEA, OPAQUE -> "\\x" + HexFormat.of().formatHex(bytes);
            case SPECIAL -> new String(bytes, StandardCharsets.US_ASCII);
        };
        return text.length() <= MAX ? text : text.substring(0, MAX) + "...";
    }

    /** Days outside LocalDate's range still print, as a day count. */
    private static String date(long epochDay) {
        try {
            return LocalDate.ofEpochDay(epochDay).toString();
        } catch (java.time.DateTimeException e) {
            return "day " + epochDay + " since 1970-01-01";
        }
    }

    private static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    }

    private static ContentDigester.Family family(byte tag) {
        for (ContentDigester.Family f : ContentDigester.Family.values()) {
            if (f.tag == tag) {
                return f;
            }
        }
        throw new IllegalArgumentException("not a canonical field: family tag " + tag);
    }
}

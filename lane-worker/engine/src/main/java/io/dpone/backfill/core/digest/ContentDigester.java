package io.dpone.backfill.core.digest;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * The canonical row encoding (ADR 0018) and the running digest of the rows fed to it, in one place for every side
 * that computes a digest: the lane from the stream it loads, {@code verify} from the source and from the published
 * table. A row is its columns in load-column order, each one field: a family tag, then a 4-byte length (-1 for
 * SQL NULL), then the family's canonical bytes:
 *
 * <table>
 * <tr><th>family</th><th>canonical bytes</th></tr>
 * <tr><td>integer (int2, int4, int8)</td><td>8-byte big-endian two's complement</td></tr>
 * <tr><td>numeric</td><td>trailing zeros stripped: 4-byte scale, then the unscaled value's two's complement bytes</td></tr>
 * <tr><td>float4 / float8</td><td>IEEE bits (4 / 8 bytes); every NaN the same bits</td></tr>
 * <tr><td>bool</td><td>one byte 0 or 1</td></tr>
 * <tr><td>text (text, varchar, bpchar, name, json, jsonb's text form, enum labels, arrays cast to text)</td><td>UTF-8</td></tr>
 * <tr><td>uuid</td><td>16 bytes, big-endian</td></tr>
 * <tr><td>date</td><td>8-byte days since 1970-01-01</td></tr>
 * <tr><td>time</td><td>8-byte microseconds of the day</td></tr>
 * <tr><td>timestamp</td><td>8-byte microseconds since 1970-01-01 00:00, no zone applied</td></tr>
 * <tr><td>timestamptz</td><td>8-byte UTC microseconds since the epoch</td></tr>
 * <tr><td>bytea</td><td>the raw bytes</td></tr>
 * <tr><td>special (NaN, infinity, -infinity, 24:00)</td><td>the special's name, ASCII</td></tr>
 * <tr><td>opaque (a type outside these families)</td><td>the field's bytes as the wire carried them</td></tr>
 * </table>
 *
 * Each row yields two 128-bit MurmurHash3 values, one over its key columns' fields (in key order) and one over all
 * its fields; the digest sums them ({@link ChunkDigest}). Never holds more than one row.
 */
public final class ContentDigester {
    /** Family tags: part of the canonical bytes, so an int 1 and a text "1" never collide. */
    public enum Family {
        INTEGER(1), NUMERIC(2), FLOAT4(3), FLOAT8(4), BOOL(5), TEXT(6), UUID(7), DATE(8), TIME(9), TIMESTAMP(10),
        TIMESTAMPTZ(11), BYTEA(12), SPECIAL(13), OPAQUE(14);

        final byte tag;

        Family(int tag) {
            this.tag = (byte) tag;
        }
    }

    // Big-endian stores of 4 and 8 bytes in one go: lanes run C1 only, which neither merges byte stores nor
    // inlines a big-endian view's conversion as well as a little-endian view plus reverseBytes (measured).
    private static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int[] keyColumns;
    private final int columns;
    private final int[] fieldStart;
    private byte[] row = new byte[256];
    private byte[] keys = new byte[64];
    private int length;
    private int column;
    private final long[] hash = new long[2];
    private final long[] keyHash = new long[2];
    private long rows;
    private long keyHigh;
    private long keyLow;
    private long rowHigh;
    private long rowLow;
    /** Sees each row's fields as it ends; null (nothing extra per row) except when a difference is being located. */
    private RowObserver observer;
    /** With an observer: only rows ended into this slot are seen (-1: every row). */
    private int observedSlot = -1;

    /** @param keyColumns positions of the key columns among the row's {@code columns}, in key order */
    public ContentDigester(int columns, int[] keyColumns) {
        if (keyColumns.length == 0) {
            throw new IllegalArgumentException("a content digest needs at least one key column");
        }
        for (int k : keyColumns) {
            if (k < 0 || k >= columns) {
                throw new IllegalArgumentException("key column " + k + " is not one of " + columns + " columns");
            }
        }
        this.columns = columns;
        this.keyColumns = keyColumns.clone();
        this.fieldStart = new int[columns + 1];
    }

    /** Key positions of {@code keyColumns} in {@code columns}; every key column must be loaded. */
    public static int[] positions(List<String> columns, List<String> keyColumns) {
        int[] positions = new int[keyColumns.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = columns.indexOf(keyColumns.get(i));
            if (positions[i] < 0) {
                throw new IllegalArgumentException("key column " + keyColumns.get(i) + " is not among the loaded columns " + columns);
            }
        }
        return positions;
    }

    /**
     * Sees every row as it ends, before its bytes are reused: to locate a difference, never on the lanes' path.
     * The view is valid only during the call.
     */
    @FunctionalInterface
    public interface RowObserver {
        void row(RowView row);
    }

    /** The row that just ended: its key hash and each field's canonical bytes (family tag, length, bytes). */
    public interface RowView {
        /** The high and low halves of the 128-bit hash of the key fields, as the digest sums them. */
        long keyHigh();

        long keyLow();

        int columns();

        /** A 64-bit hash of one field's canonical bytes. */
        long fieldHash(int column);

        /** A copy of one field's canonical bytes, for {@link CanonicalText}. */
        byte[] field(int column);
    }

    /** Lets {@code observer} see every row from now on (null: none). */
    public ContentDigester observe(RowObserver observer) {
        return observe(observer, -1);
    }

    /** Lets {@code observer} see the rows ended into {@code slot} of a table from now on (-1: every row). */
    public ContentDigester observe(RowObserver observer, int slot) {
        this.observer = observer;
        this.observedSlot = slot;
        return this;
    }

    // --- one row: its fields in column order, then endRow ---

    public void nul() {
        open(null, 4);
        putInt(-1);
        column++;
    }

    public void integer(long v) {
        begin(Family.INTEGER, 8);
        putLong(v);
    }

    public void numeric(BigDecimal v) {
        BigDecimal n = v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
        byte[] unscaled = n.unscaledValue().toByteArray();
        begin(Family.NUMERIC, 4 + unscaled.length);
        putInt(n.scale());
        putBytes(unscaled, 0, unscaled.length);
    }

    /**
     * The numeric {@code unscaled * 10^-scale}, encoded exactly as {@link #numeric(BigDecimal)} encodes it: for a
     * reader that has the digits without building a BigDecimal (PostgreSQL's binary numeric up to 16 digits).
     */
    public void numeric(long unscaled, int scale) {
        if (unscaled == 0) {
            scale = 0;
        } else {
            while (unscaled % 10 == 0) {
                unscaled /= 10;
                scale--;
            }
        }
        // BigInteger.toByteArray's length: the minimal two's complement, sign bit included.
        int bits = 64 - Long.numberOfLeadingZeros(unscaled < 0 ? ~unscaled : unscaled);
        int bytes = bits / 8 + 1;
        begin(Family.NUMERIC, 4 + bytes);
        putInt(scale);
        for (int i = bytes - 1; i >= 0; i--) {
            row[length++] = (byte) (unscaled >>> (8 * i));
        }
    }

    public void float4(float v) {
        begin(Family.FLOAT4, 4);
        putInt(Float.floatToIntBits(v));
    }

    public void float8(double v) {
        begin(Family.FLOAT8, 8);
        putLong(Double.doubleToLongBits(v));
    }

    public void bool(boolean v) {
        begin(Family.BOOL, 1);
        row[length++] = (byte) (v ? 1 : 0);
    }

    public void text(String v) {
        byte[] utf8 = v.getBytes(StandardCharsets.UTF_8);
        text(utf8, 0, utf8.length);
    }

    /** Text as UTF-8 bytes, e.g. straight from a binary COPY field. */
    public void text(byte[] utf8, int offset, int len) {
        begin(Family.TEXT, len);
        putBytes(utf8, offset, len);
    }

    public void uuid(long mostSignificant, long leastSignificant) {
        begin(Family.UUID, 16);
        putLong(mostSignificant);
        putLong(leastSignificant);
    }

    public void date(long epochDay) {
        begin(Family.DATE, 8);
        putLong(epochDay);
    }

    public void time(long microOfDay) {
        begin(Family.TIME, 8);
        putLong(microOfDay);
    }

    /** A timestamp without time zone: its wall-clock reading in microseconds since 1970-01-01 00:00. */
    public void timestamp(long micros) {
        begin(Family.TIMESTAMP, 8);
        putLong(micros);
    }

    public void timestamptz(long utcMicros) {
        begin(Family.TIMESTAMPTZ, 8);
        putLong(utcMicros);
    }

    public void bytea(byte[] v, int offset, int len) {
        begin(Family.BYTEA, len);
        putBytes(v, offset, len);
    }

    /** A value outside every Java type: NaN, infinity, -infinity, 24:00 (named as an enum constant). */
    public void special(String name) {
        byte[] ascii = name.getBytes(StandardCharsets.US_ASCII);
        begin(Family.SPECIAL, ascii.length);
        putBytes(ascii, 0, ascii.length);
    }

    /** A field of a type outside the families, as the wire carried it: equal only to the same wire's bytes. */
    public void opaque(byte[] v, int offset, int len) {
        begin(Family.OPAQUE, len);
        putBytes(v, offset, len);
    }

    /**
     * A decoded Java value (the SQL Server route's values, JDBC reads): dispatched by its class to its family.
     * Short/Integer/Long are integers; an enum constant is a special (the decoder's NaN/infinity markers).
     */
    public void value(Object v) {
        if (v == null) {
            nul();
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            integer(((Number) v).longValue());
        } else if (v instanceof BigDecimal d) {
            numeric(d);
        } else if (v instanceof BigInteger i) {
            numeric(new BigDecimal(i));
        } else if (v instanceof Double d) {
            float8(d);
        } else if (v instanceof Float f) {
            float4(f);
        } else if (v instanceof Boolean b) {
            bool(b);
        } else if (v instanceof String s) {
            text(s);
        } else if (v instanceof UUID u) {
            uuid(u.getMostSignificantBits(), u.getLeastSignificantBits());
        } else if (v instanceof LocalDate d) {
            date(d.toEpochDay());
        } else if (v instanceof LocalTime t) {
            time(t.toNanoOfDay() / 1000);
        } else if (v instanceof LocalDateTime t) {
            timestamp(micros(t.toInstant(ZoneOffset.UTC)));
        } else if (v instanceof OffsetDateTime t) {
            timestamptz(micros(t.toInstant()));
        } else if (v instanceof Instant t) {
            timestamptz(micros(t));
        } else if (v instanceof byte[] b) {
            bytea(b, 0, b.length);
        } else if (v instanceof Enum<?> e) {
            special(e.name());
        } else {
            throw new IllegalArgumentException("no canonical encoding for a " + v.getClass().getName());
        }
    }

    /** Ends the current row: hashes its key fields and all its fields into this digester's own digest. */
    public void endRow() {
        hashRow(-1);
        keyHigh += keyHash[0];
        keyLow += keyHash[1];
        rowHigh += hash[0];
        rowLow += hash[1];
        rows++;
    }

    /** Ends the current row into {@code slot} of {@code table} (verify's per-chunk sums) instead of this digest. */
    public void endRow(DigestTable table, int slot) {
        hashRow(slot);
        table.add(slot, keyHash[0], keyHash[1], hash[0], hash[1]);
    }

    private void hashRow(int slot) {
        if (column != columns) {
            throw new IllegalStateException("a row of " + columns + " columns got " + column + " fields");
        }
        fieldStart[columns] = length;
        int keyLength = 0;
        for (int k : keyColumns) {
            int len = fieldStart[k + 1] - fieldStart[k];
            if (keys.length < keyLength + len) {
                keys = Arrays.copyOf(keys, Math.max(keys.length * 2, keyLength + len));
            }
            System.arraycopy(row, fieldStart[k], keys, keyLength, len);
            keyLength += len;
        }
        RowHash128.hash(keys, 0, keyLength, keyHash);
        RowHash128.hash(row, 0, length, hash);
        if (observer != null && (observedSlot < 0 || slot == observedSlot)) {
            observer.row(view);
        }
        length = 0;
        column = 0;
    }

    private final RowView view = new RowView() {
        private final long[] fieldHash = new long[2];

        @Override
        public long keyHigh() {
            return keyHash[0];
        }

        @Override
        public long keyLow() {
            return keyHash[1];
        }

        @Override
        public int columns() {
            return columns;
        }

        @Override
        public long fieldHash(int c) {
            RowHash128.hash(row, fieldStart[c], fieldStart[c + 1] - fieldStart[c], fieldHash);
            return fieldHash[0] ^ fieldHash[1];
        }

        @Override
        public byte[] field(int c) {
            return Arrays.copyOfRange(row, fieldStart[c], fieldStart[c + 1]);
        }
    };

    /** The digest of the rows ended so far. */
    public ChunkDigest digest() {
        return new ChunkDigest(rows, keyHigh, keyLow, rowHigh, rowLow);
    }

    /** Starts over with no rows (one digester serves chunk after chunk). */
    public void reset() {
        rows = 0;
        keyHigh = 0;
        keyLow = 0;
        rowHigh = 0;
        rowLow = 0;
        length = 0;
        column = 0;
    }

    static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }

    /** Opens a field of {@code len} canonical bytes and writes its header; the caller then writes exactly them. */
    private void begin(Family family, int len) {
        open(family, 4 + len);
        putInt(len);
        column++;
    }

    /** Writes the field's family tag, with room made for the {@code more} bytes that follow it. */
    private void open(Family family, int more) {
        if (column >= columns) {
            throw new IllegalStateException("a row of " + columns + " columns got another field");
        }
        fieldStart[column] = length;
        ensure(1 + more);
        row[length++] = family == null ? 0 : family.tag;
    }

    private void ensure(int more) {
        if (row.length < length + more) {
            row = Arrays.copyOf(row, Math.max(row.length * 2, length + more));
        }
    }

    // The puts write into room their field's begin made.
    private void putInt(int v) {
        LE32.set(row, length, Integer.reverseBytes(v));
        length += 4;
    }

    private void putLong(long v) {
        LE64.set(row, length, Long.reverseBytes(v));
        length += 8;
    }

    private void putBytes(byte[] b, int offset, int len) {
        System.arraycopy(b, offset, row, length, len);
        length += len;
    }
}

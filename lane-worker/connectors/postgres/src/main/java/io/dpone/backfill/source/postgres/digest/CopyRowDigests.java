package io.dpone.backfill.source.postgres.digest;

import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.digest.DigestTable;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.source.postgres.binary.BinaryCopyFormatException;
import io.dpone.backfill.source.SpecialValue;
import io.dpone.backfill.source.postgres.binary.PgType;

import io.dpone.backfill.core.plan.UuidKeys;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import static io.dpone.backfill.source.postgres.binary.FixedWidthDecoders.int32;
import static io.dpone.backfill.source.postgres.binary.FixedWidthDecoders.int64;

/**
 * Feeds PostgreSQL COPY rows (binary tuples or text lines) into a {@link ContentDigester}, one field at a time, so a
 * value digests the same whichever wire carried it and whatever JDBC later reads back (ADR 0018). Text fields are
 * read as pgjdbc sessions render them (DateStyle ISO, extra_float_digits 3, bytea hex); timestamptz text carries
 * its offset and is digested in UTC.
 */
public final class CopyRowDigests {
    private final PgType[] types;
    private final ContentDigester digester;
    private byte[] field = new byte[128];
    private int keyColumn = -1;
    private BigInteger key;
    private DigestTable table;
    private ChunkPlan plan;

    /** @param types one per column, null for a type digested as opaque wire bytes ({@link ColumnFamilies}) */
    public CopyRowDigests(PgType[] types, ContentDigester digester) {
        this.types = types.clone();
        this.digester = digester;
    }

    public ContentDigester digester() {
        return digester;
    }

    /**
     * Also reads the chunk column (an integer or uuid column at {@code column}) of every row, as the plan orders
     * keys: {@link #key()}. Verify maps each published row to its chunk by it.
     */
    public CopyRowDigests readingKey(int column) {
        PgType type = types[column];
        if (type != PgType.INT2 && type != PgType.INT4 && type != PgType.INT8 && type != PgType.UUID) {
            throw new IllegalArgumentException("the chunk column is " + (type == null ? "of an unsupported type" : type.typname())
                    + ", not an integer or uuid");
        }
        this.keyColumn = column;
        return this;
    }

    /**
     * Ends every row into its chunk's slot of {@code table} instead of the digester's own sum: the slot of the chunk
     * of {@code plan} that holds the row's chunk key ({@link #readingKey} first), or slot 0 when {@code plan} is null
     * (a physical plan: the published table cannot place a row in a block range).
     */
    public CopyRowDigests into(DigestTable table, ChunkPlan plan) {
        if (plan != null && keyColumn < 0) {
            throw new IllegalStateException("rows are placed in chunks by their chunk column: call readingKey first");
        }
        this.table = table;
        this.plan = plan;
        return this;
    }

    private void endRow() {
        if (table == null) {
            digester.endRow();
        } else {
            digester.endRow(table, plan == null ? 0 : plan.locate(key()).id());
        }
    }

    /** The chunk column's value in the row fed last (plan order: signed integers, uuids as unsigned 128 bits). */
    public BigInteger key() {
        if (key == null) {
            throw new IllegalStateException("the row fed last has no chunk key (NULL, or no key column was asked for)");
        }
        return key;
    }

    /** One binary COPY tuple: a 2-byte field count, then per field a 4-byte length (-1 NULL) and its bytes. */
    public void binaryRow(byte[] tuple, int offset) throws BinaryCopyFormatException {
        int p = offset + 2;
        key = null;
        for (int c = 0; c < types.length; c++) {
            int len = int32(tuple, p);
            p += 4;
            if (len < 0) {
                digester.nul();
            } else {
                if (c == keyColumn) {
                    key = types[c] == PgType.UUID ? UuidKeys.fromBits(int64(tuple, p), int64(tuple, p + 8))
                            : BigInteger.valueOf(len == 2 ? (short) (((tuple[p] & 0xff) << 8) | (tuple[p + 1] & 0xff))
                            : len == 4 ? int32(tuple, p) : int64(tuple, p));
                }
                binaryField(types[c], tuple, p, len);
                p += len;
            }
        }
        endRow();
    }

    private void binaryField(PgType type, byte[] b, int off, int len) throws BinaryCopyFormatException {
        if (type == null) {
            digester.opaque(b, off, len);
            return;
        }
        switch (type) {
            case INT2 -> digester.integer((short) (((b[off] & 0xff) << 8) | (b[off + 1] & 0xff)));
            case INT4 -> digester.integer(int32(b, off));
            case INT8 -> digester.integer(int64(b, off));
            case FLOAT4 -> digester.float4(Float.intBitsToFloat(int32(b, off)));
            case FLOAT8 -> digester.float8(Double.longBitsToDouble(int64(b, off)));
            case BOOL -> digester.bool(b[off] != 0);
            case UUID -> digester.uuid(int64(b, off), int64(b, off + 8));
            case TEXT, VARCHAR, BPCHAR, NAME, JSON -> digester.text(b, off, len);
            case BYTEA -> digester.bytea(b, off, len);
            // jsonb_send: a version byte, then the text form (the decoder checks the version on the slow path)
            case JSONB -> {
                if (len >= 1 && b[off] == 1) {
                    digester.text(b, off + 1, len - 1);
                } else {
                    digester.value(type.decoder().decode(b, off, len));
                }
            }
            case TIMESTAMP, TIMESTAMPTZ -> {
                long micros = int64(b, off);
                if (micros == Long.MAX_VALUE || micros == Long.MIN_VALUE) {
                    digester.value(type.decoder().decode(b, off, len));
                } else if (type == PgType.TIMESTAMP) {
                    digester.timestamp(micros + PG_EPOCH_MICROS);
                } else {
                    digester.timestamptz(micros + PG_EPOCH_MICROS);
                }
            }
            case DATE -> {
                int days = int32(b, off);
                if (days == Integer.MAX_VALUE || days == Integer.MIN_VALUE) {
                    digester.value(type.decoder().decode(b, off, len));
                } else {
                    digester.date(days + PG_EPOCH_DAY);
                }
            }
            case NUMERIC -> {
                if (!smallNumeric(b, off)) {
                    digester.value(type.decoder().decode(b, off, len));
                }
            }
            default -> digester.value(type.decoder().decode(b, off, len));
        }
    }

    /** PostgreSQL's epoch (2000-01-01) in days and microseconds since 1970-01-01. */
    private static final long PG_EPOCH_DAY = 10_957;
    private static final long PG_EPOCH_MICROS = PG_EPOCH_DAY * 86_400_000_000L;

    /**
     * A binary numeric of at most 4 base-10000 digits (16 decimal digits), digested without a BigDecimal; false for
     * anything else (longer, NaN, infinities), which takes the decoder.
     */
    private boolean smallNumeric(byte[] b, int off) {
        int ndigits = (short) (((b[off] & 0xff) << 8) | (b[off + 1] & 0xff));
        int weight = (short) (((b[off + 2] & 0xff) << 8) | (b[off + 3] & 0xff));
        int sign = ((b[off + 4] & 0xff) << 8) | (b[off + 5] & 0xff);
        if (ndigits > 4 || (sign != 0x0000 && sign != 0x4000)) {
            return false;
        }
        long unscaled = 0;
        for (int i = 0; i < ndigits; i++) {
            int p = off + 8 + 2 * i;
            unscaled = unscaled * 10_000 + (((b[p] & 0xff) << 8) | (b[p + 1] & 0xff));
        }
        digester.numeric(sign == 0x4000 ? -unscaled : unscaled, ndigits == 0 ? 0 : 4 * (ndigits - 1 - weight));
        return true;
    }

    /** One COPY text line: tab-separated fields, {@code \N} for NULL, backslash escapes, a final newline. */
    public void textRow(byte[] line) {
        int end = line.length;
        if (end > 0 && line[end - 1] == '\n') {
            end--;
        }
        int start = 0;
        key = null;
        for (int c = 0; c < types.length; c++) {
            int stop = start;
            while (stop < end && line[stop] != '\t') {
                stop++;
            }
            if (c == types.length - 1 ? stop != end : stop == end) {
                throw new IllegalArgumentException("a COPY text row does not hold " + types.length + " fields");
            }
            if (stop - start == 2 && line[start] == '\\' && line[start + 1] == 'N') {
                digester.nul();
            } else {
                int len = unescape(line, start, stop);
                if (c == keyColumn) {
                    String text = new String(field, 0, len, StandardCharsets.US_ASCII);
                    key = types[c] == PgType.UUID ? UuidKeys.fromText(text) : new BigInteger(text);
                }
                textField(types[c], len);
            }
            start = stop + 1;
        }
        endRow();
    }

    private void textField(PgType type, int len) {
        if (type == null) {
            digester.opaque(field, 0, len);
            return;
        }
        switch (type) {
            case TEXT, VARCHAR, BPCHAR, NAME, JSON -> digester.text(field, 0, len);
            case BYTEA -> {
                byte[] raw = hex(len);
                digester.bytea(raw, 0, raw.length);
            }
            default -> digester.value(PgTextValues.parse(type, new String(field, 0, len, StandardCharsets.UTF_8)));
        }
    }

    /** Undoes COPY text escaping into {@link #field}; returns the length. */
    private int unescape(byte[] line, int start, int stop) {
        if (field.length < stop - start) {
            field = new byte[Math.max(field.length * 2, stop - start)];
        }
        int n = 0;
        for (int i = start; i < stop; i++) {
            byte b = line[i];
            if (b == '\\' && i + 1 < stop) {
                byte e = line[++i];
                b = switch (e) {
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 't' -> '\t';
                    case 'v' -> 0x0b;
                    default -> e;
                };
            }
            field[n++] = b;
        }
        return n;
    }

    /** bytea in hex output form: {@code \x} then two hex digits a byte. */
    private byte[] hex(int len) {
        if (len < 2 || field[0] != '\\' || field[1] != 'x') {
            throw new IllegalArgumentException("bytea text is not in hex form (bytea_output = hex)");
        }
        byte[] raw = new byte[(len - 2) / 2];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = (byte) (Character.digit(field[2 + 2 * i], 16) << 4 | Character.digit(field[3 + 2 * i], 16));
        }
        return raw;
    }

    /** Values of the text form as the binary decoders would return them (specials by the same names). */
    static final class PgTextValues {
        private PgTextValues() {
        }

        static Object parse(PgType type, String s) {
            return switch (type) {
                case INT2, INT4, INT8 -> s.indexOf('.') < 0 ? Long.parseLong(s) : integral(s);
                case NUMERIC -> switch (s) {
                    case "NaN" -> special("NAN");
                    case "Infinity" -> special("POSITIVE_INFINITY");
                    case "-Infinity" -> special("NEGATIVE_INFINITY");
                    default -> new BigDecimal(s);
                };
                case FLOAT4 -> Float.parseFloat(s);
                case FLOAT8 -> Double.parseDouble(s);
                case BOOL -> "t".equals(s);
                case UUID -> java.util.UUID.fromString(s);
                case DATE -> infinity(s) != null ? infinity(s) : date(s);
                case TIME -> "24:00:00".equals(s) ? special("END_OF_DAY") : LocalTime.parse(s);
                case TIMESTAMP -> infinity(s) != null ? infinity(s) : timestamp(s);
                case TIMESTAMPTZ -> infinity(s) != null ? infinity(s) : timestamptz(s);
                case JSONB -> s;
                default -> s;
            };
        }

        /**
         * An integer read from a wider numeric column ({@code 5.00}): the integer when it is one, else the numeric
         * itself, which then digests as a numeric and differs, as it should.
         */
        private static Object integral(String s) {
            BigDecimal d = new BigDecimal(s);
            try {
                return d.longValueExact();
            } catch (ArithmeticException notAnInteger) {
                return d;
            }
        }

        private static Object infinity(String s) {
            return "infinity".equals(s) ? special("POSITIVE_INFINITY") : "-infinity".equals(s) ? special("NEGATIVE_INFINITY") : null;
        }

        private static LocalDate date(String s) {
            boolean bc = s.endsWith(" BC");
            LocalDate d = LocalDate.parse(bc ? s.substring(0, s.length() - 3) : s);
            return bc ? d.withYear(1 - d.getYear()) : d;
        }

        private static LocalDateTime timestamp(String s) {
            boolean bc = s.endsWith(" BC");
            LocalDateTime t = LocalDateTime.parse((bc ? s.substring(0, s.length() - 3) : s).replace(' ', 'T'));
            return bc ? t.withYear(1 - t.getYear()) : t;
        }

        /** {@code 2024-01-02 03:04:05.5+05:30} (the offset as PostgreSQL prints it: +HH, +HH:MM or +HH:MM:SS). */
        private static OffsetDateTime timestamptz(String s) {
            boolean bc = s.endsWith(" BC");
            String t = bc ? s.substring(0, s.length() - 3) : s;
            int sign = Math.max(t.lastIndexOf('+'), t.lastIndexOf('-'));
            if (sign < 11) {
                throw new IllegalArgumentException("timestamptz text without an offset: " + s);
            }
            LocalDateTime local = LocalDateTime.parse(t.substring(0, sign).replace(' ', 'T'));
            if (bc) {
                local = local.withYear(1 - local.getYear());
            }
            String[] hms = t.substring(sign + 1).split(":");
            int seconds = Integer.parseInt(hms[0]) * 3600 + (hms.length > 1 ? Integer.parseInt(hms[1]) * 60 : 0)
                    + (hms.length > 2 ? Integer.parseInt(hms[2]) : 0);
            ZoneOffset offset = ZoneOffset.ofTotalSeconds(t.charAt(sign) == '-' ? -seconds : seconds);
            return local.atOffset(offset).withOffsetSameInstant(ZoneOffset.UTC);
        }

        private static SpecialValue special(String name) {
            return SpecialValue.valueOf(name);
        }
    }
}

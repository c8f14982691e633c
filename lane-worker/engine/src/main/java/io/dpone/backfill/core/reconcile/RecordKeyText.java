package io.dpone.backfill.core.reconcile;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * A key as canonical text, the record text format: {@code (v1,v2)}, each value as its type prints it, quoted when
 * empty or holding a double quote, backslash, parenthesis, comma or white space (double quotes and backslashes
 * doubled inside the quotes), a NULL left empty. It is what reconciliation digests, queues and {@code --accept}
 * takes (issue 38), so a target that cannot print its keys this way itself builds it here from the Java values it
 * read back, and hashes it as the source does ({@link #hash}).
 *
 * <p>Values: {@link Short}, {@link Integer}, {@link Long} (decimal), {@link String} (as is), {@link UUID} (lower case,
 * hyphenated). Any other type is refused: its text form would have to match the source's byte for byte.
 */
public final class RecordKeyText {
    private RecordKeyText() {
    }

    /** Whether {@code javaType} is a key value type this text can print. */
    public static boolean prints(Class<?> javaType) {
        return javaType == Short.class || javaType == Integer.class || javaType == Long.class || javaType == String.class
                || javaType == UUID.class;
    }

    /** The key's text; {@code values} in key column order, null for SQL NULL. */
    public static String of(List<?> values) {
        StringBuilder text = new StringBuilder(2 + 16 * values.size()).append('(');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                text.append(',');
            }
            Object value = values.get(i);
            if (value != null) {
                quoted(text, value(value));
            }
        }
        return text.append(')').toString();
    }

    /**
     * The key's 64-bit hash, as the digests sum it: {@link Lookup3Hash} of its text's UTF-8 bytes, except a key of one
     * uuid column, which hashes its 16 bytes (the same function over the value instead of its 38 characters: both
     * sides of a route hash a uuid key so).
     */
    public static long hash(List<?> values) {
        if (values.size() == 1 && values.get(0) instanceof UUID uuid) {
            ByteBuffer bytes = ByteBuffer.allocate(16);
            bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
            return Lookup3Hash.hash64(bytes.array(), 0);
        }
        return Lookup3Hash.hash64(of(values).getBytes(StandardCharsets.UTF_8), 0);
    }

    /** The bucket of a key with {@code hash}: its low bits ({@link KeyBuckets#COUNT} buckets). */
    public static int bucket(long hash) {
        return (int) (hash & (KeyBuckets.COUNT - 1));
    }

    private static String value(Object value) {
        if (value instanceof Short || value instanceof Integer || value instanceof Long) {
            return value.toString();
        }
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof UUID u) {
            return u.toString();
        }
        throw new IllegalArgumentException("a key value of type " + value.getClass().getSimpleName()
                + " has no canonical key text (smallint, integer, bigint, text and uuid keys do)");
    }

    private static void quoted(StringBuilder text, String value) {
        boolean quote = value.isEmpty();
        for (int i = 0; i < value.length() && !quote; i++) {
            char ch = value.charAt(i);
            quote = ch == '"' || ch == '\\' || ch == '(' || ch == ')' || ch == ',' || ch == ' ' || ch == '\t'
                    || ch == '\n' || ch == '\r' || ch == '\f' || ch == 0x0B;
        }
        if (quote) {
            text.append('"');
        }
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch == '"' || ch == '\\') {
                text.append(ch);
            }
            text.append(ch);
        }
        if (quote) {
            text.append('"');
        }
    }
}

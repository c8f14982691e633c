package io.dpone.backfill.targets.mssql.types;

/**
 * Value guards of length, counted as SQL Server counts the target type: nvarchar(n) in UTF-16 code units (a
 * character outside the Basic Multilingual Plane takes two), varchar(n) in bytes of its encoding, varbinary(n) in
 * bytes.
 */
final class LengthGuards {
    private LengthGuards() {
    }

    static ValueGuard utf16Units(int limit) {
        return utf16Units("nvarchar", limit);
    }

    static ValueGuard utf16Units(String type, int limit) {
        return new ValueGuard(type + "(" + limit + ") holds " + limit
                + " UTF-16 code units (a character outside the Basic Multilingual Plane counts 2)",
                value -> value instanceof String text && text.length() <= limit);
    }

    static ValueGuard utf8Bytes(int limit) {
        return utf8Bytes("varchar", limit);
    }

    static ValueGuard utf8Bytes(String type, int limit) {
        return new ValueGuard(type + "(" + limit + ") with a UTF-8 collation holds " + limit + " bytes of UTF-8",
                value -> value instanceof String text && utf8Length(text, limit) <= limit);
    }

    /**
     * Outside UTF-8 collations varchar holds a code page; ASCII is the part every SQL Server code page shares, so it
     * is the only text accepted there (anything else could become '?').
     */
    static final ValueGuard ASCII_ONLY = new ValueGuard(
            "varchar or char without a UTF-8 collation accepts ASCII text only (other characters depend on the code page)",
            value -> value instanceof String text && text.chars().allMatch(c -> c < 0x80));

    static ValueGuard asciiCharacters(int limit) {
        return asciiCharacters("varchar", limit);
    }

    static ValueGuard asciiCharacters(String type, int limit) {
        return new ValueGuard(type + "(" + limit + ") holds " + limit + " bytes, one per ASCII character",
                value -> value instanceof String text && text.length() <= limit);
    }

    static ValueGuard bytes(int limit) {
        return new ValueGuard("varbinary(" + limit + ") holds " + limit + " bytes",
                value -> value instanceof byte[] bytes && bytes.length <= limit);
    }

    /** The UTF-8 length of text, counting stops once past limit: a long document is not measured to its end. */
    static int utf8Length(String text, int limit) {
        int bytes = 0;
        for (int i = 0; i < text.length() && bytes <= limit; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}

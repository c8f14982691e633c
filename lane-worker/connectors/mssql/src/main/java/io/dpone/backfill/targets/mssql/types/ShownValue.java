package io.dpone.backfill.targets.mssql.types;

import java.util.HexFormat;

/** A decoded value as a rejection shows it: recognisable, bounded in length, bytes in hex. */
final class ShownValue {
    private ShownValue() {
    }

    static String of(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof byte[] bytes) {
            int shown = Math.min(bytes.length, MssqlValueRejectedException.SHOWN_CHARACTERS / 2);
            String hex = "\\x" + HexFormat.of().formatHex(bytes, 0, shown);
            return shown < bytes.length ? hex + "... (" + bytes.length + " bytes)" : hex;
        }
        String text = value instanceof String ? "'" + value + "'" : String.valueOf(value);
        int limit = MssqlValueRejectedException.SHOWN_CHARACTERS;
        if (text.length() <= limit) {
            return text;
        }
        // Never cut between the two halves of a supplementary character.
        int cut = Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
        return text.substring(0, cut) + "... (" + text.length() + " characters)";
    }
}

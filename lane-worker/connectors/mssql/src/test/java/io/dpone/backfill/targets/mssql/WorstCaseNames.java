package io.dpone.backfill.targets.mssql;

/**
 * Identifiers at SQL Server's limit with every character that quoting must survive: {@code ]} (doubled inside
 * brackets), {@code '} (doubled inside N'' literals), {@code "}, a space, {@code ?} and {@code {} (the driver's
 * parameter marker and escape opener), {@code %1$s} and {@code ${schema}} (format and placeholder syntax, issue 39), {@code ;}, accented and CJK letters and a character outside the BMP (two UTF-16 units:
 * sysname counts units, MicrosoftDocs/sql-docs database-identifiers.md). Each is exactly 128 UTF-16 units.
 */
public final class WorstCaseNames {
    private static final String HARD = "a] b'c\"d?e{f}gé中\uD83D\uDE00--/*%1$s${schema};";

    private WorstCaseNames() {
    }

    /** A 128-unit identifier that differs from every other {@code tag}'s. */
    public static String identifier(String tag) {
        return ofLength(tag, MssqlIdentifiers.MAX_LENGTH);
    }

    /** An identifier of {@code length} UTF-16 units starting with the hard characters and {@code tag}. */
    public static String ofLength(String tag, int length) {
        StringBuilder name = new StringBuilder(HARD).append(tag).append('_');
        while (name.length() < length) {
            name.append(']');
        }
        return name.substring(0, length);
    }
}

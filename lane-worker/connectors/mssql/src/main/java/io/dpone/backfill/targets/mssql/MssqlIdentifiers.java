package io.dpone.backfill.targets.mssql;

/** T-SQL identifiers: bracket-quoted, within SQL Server's 128-character limit, and safe inside an N'' literal. */
public final class MssqlIdentifiers {
    public static final int MAX_LENGTH = 128;

    private MssqlIdentifiers() {
    }

    /** {@code [name]} with {@code ]} doubled; refuses empty names and names SQL Server would not accept. */
    public static String quote(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("SQL Server identifier must be 1-" + MAX_LENGTH + " characters: " + name);
        }
        if (name.indexOf('\u0000') >= 0) {
            throw new IllegalArgumentException("SQL Server identifier must not contain NUL: " + name);
        }
        return "[" + name.replace("]", "]]") + "]";
    }

    /** {@code text} as the body of an {@code N'...'} literal (quotes doubled), e.g. for OBJECT_ID and EXEC. */
    public static String inLiteral(String text) {
        return text.replace("'", "''");
    }
}

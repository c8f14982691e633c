package io.dpone.backfill.pgembedded;

import java.util.regex.Pattern;

/** Validation of names we splice into SQL, URLs and postgresql.conf. */
final class Identifiers {
    /** PostgreSQL truncates identifiers beyond 63 bytes; rejecting is clearer than a silent truncation. */
    static final int MAX_IDENTIFIER_LENGTH = 63;
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern SETTING_NAME = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)?");

    private Identifiers() {
    }

    static String requireDatabaseName(String name) {
        if (name == null || name.length() > MAX_IDENTIFIER_LENGTH || !PLAIN_IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("database name must be a plain identifier "
                    + "([A-Za-z_][A-Za-z0-9_]*, at most " + MAX_IDENTIFIER_LENGTH + " characters): " + name);
        }
        return name;
    }

    static String requireSettingName(String name) {
        if (name == null || !SETTING_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a PostgreSQL setting name: " + name);
        }
        return name;
    }

    static String requireSettingValue(String value) {
        if (value == null || value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0 || value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("setting value must be a single line: " + value);
        }
        return value;
    }

    /** A quoted postgresql.conf value: backslashes and single quotes escaped. */
    static String confLiteral(String value) {
        return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}

package io.dpone.backfill.source.postgres.binary;

/** PostgreSQL identifier quoting: always quoted, embedded double quotes doubled, so any catalog name is safe. */
final class SqlIdentifier {
    private SqlIdentifier() {
    }

    static String quote(String name) {
        if (name == null || name.isEmpty() || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a PostgreSQL identifier: " + (name == null ? "null" : "\"" + name.replace("\0", "\\0") + "\""));
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}

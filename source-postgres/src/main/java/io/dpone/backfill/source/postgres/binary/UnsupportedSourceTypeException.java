package io.dpone.backfill.source.postgres.binary;

/** A column whose type the binary decoder does not load; raised while planning, before any row is copied. */
public class UnsupportedSourceTypeException extends IllegalArgumentException {
    private final String column;
    private final String type;

    public UnsupportedSourceTypeException(String column, String type, String reason) {
        super("column \"" + column + "\" has type " + type + ", which the PostgreSQL binary loader does not support: " + reason);
        this.column = column;
        this.type = type;
    }

    public String column() {
        return column;
    }

    public String type() {
        return type;
    }
}

package io.dpone.backfill.source;

/** A column whose type the source cannot hand a target; raised while describing columns, before any row is copied. */
public class UnsupportedSourceTypeException extends IllegalArgumentException {
    private final String column;
    private final String type;

    /** @param why the whole sentence, naming the column, its type and what the source loads instead */
    public UnsupportedSourceTypeException(String column, String type, String why) {
        super(why);
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

package io.dpone.backfill.targets.mssql.types;

import java.sql.SQLDataException;

/**
 * A decoded value the target column cannot hold exactly. It is an SQLException, so it passes unchanged through
 * {@code ISQLServerBulkData.getRowData()} and the bulk copy; the caller fails the chunk with it. SQLSTATE 22000
 * (data exception) marks it as permanent: retrying the chunk reads the same value again.
 */
public final class MssqlValueRejectedException extends SQLDataException {
    private static final long serialVersionUID = 1L;
    /** Enough of a value to recognise it in the source without copying a whole document into a log line. */
    static final int SHOWN_CHARACTERS = 80;

    private final String column;
    private final String rowKey;
    private final String rule;
    private final String shownValue;

    MssqlValueRejectedException(String column, String pair, String rowKey, String rule, String shownValue) {
        super("column \"" + column + "\" (" + pair + "), row " + rowKey + ": value " + shownValue + " is refused: " + rule,
                "22000");
        this.column = column;
        this.rowKey = rowKey;
        this.rule = rule;
        this.shownValue = shownValue;
    }

    public String column() {
        return column;
    }

    public String rowKey() {
        return rowKey;
    }

    public String rule() {
        return rule;
    }

    /** The value as shown in the message: its text, cut to {@value #SHOWN_CHARACTERS} characters. */
    public String shownValue() {
        return shownValue;
    }
}

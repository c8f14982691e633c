package io.dpone.backfill.source;

import java.sql.SQLException;
import java.util.List;

/**
 * What a foreign key will find in the source table once it is loaded, asked before loading by the targets' doctors
 * (issues 27 and 36): whether any source row would reference another table, and which referencing values no source
 * row holds. Read only. Values travel as text, so a target of any engine can send what it read from its own tables;
 * each value is compared with its source column as its {@link KeyMatch} says.
 */
public interface SourceKeyProbe {
    /** Whether a row of the table has every one of {@code columns} set. */
    boolean anyRowReferencing(String schema, String table, List<String> columns) throws SQLException;

    /**
     * The tuples of {@code values} (one text per column, none null) that no row of the table holds in
     * {@code columns}, sorted.
     */
    List<String[]> missing(String schema, String table, List<String> columns, List<KeyMatch> matches, List<String[]> values)
            throws SQLException;

    /** The type of one column as values are compared with it. */
    SourceKeyType columnType(String schema, String table, String column) throws SQLException;

    /** A tuple as findings show it: {@code v}, or {@code (v1, v2)} for a composite key. */
    static String shown(String[] tuple) {
        return tuple.length == 1 ? tuple[0] : "(" + String.join(", ", tuple) + ")";
    }
}

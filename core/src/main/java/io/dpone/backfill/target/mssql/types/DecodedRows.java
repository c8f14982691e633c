package io.dpone.backfill.target.mssql.types;

import java.sql.SQLException;

/**
 * Decoded source rows, one at a time, in the order of the column bindings: the binary COPY reader seen from the
 * bulk copy (its next() and row()). The array may be reused by the next call.
 */
@FunctionalInterface
public interface DecodedRows {
    /** The next row's decoded values, or null after the last row. */
    Object[] nextRow() throws SQLException;
}

package io.dpone.backfill.target.mssql.types;

import io.dpone.backfill.source.postgres.binary.BinaryCopyReader;

import java.io.IOException;
import java.sql.SQLException;

/**
 * Decoded source rows, one at a time, in the order of the column bindings. The array may be reused by the next
 * call (the binary COPY reader refills one array).
 */
@FunctionalInterface
public interface DecodedRows {
    /** The next row's decoded values, or null after the last row. */
    Object[] nextRow() throws SQLException;

    /**
     * The rows of a binary COPY reader. The bulk copy's interface admits only SQLException, so a broken or malformed
     * stream arrives as one, its IOException kept as the cause for the caller to classify.
     */
    static DecodedRows of(BinaryCopyReader reader) {
        return () -> {
            try {
                return reader.next() ? reader.row() : null;
            } catch (IOException e) {
                throw new SQLException("reading the PostgreSQL binary COPY stream failed after " + reader.rowsRead()
                        + " rows: " + e.getMessage(), e);
            }
        };
    }
}

package io.dpone.backfill.source;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The source table of a route as a target sees it: its schema and name, a connection the caller opened and closes,
 * and the source adapter that reads it. The connection may be null where a doctor reports it missing.
 */
public record SourceTable(SourceAdapter adapter, Connection connection, String schema, String table) {
    /** What the target needs to know of {@code columns}, in that order ({@link SourceAdapter#columns}). */
    public List<SourceColumn> columns(List<String> columns) throws SQLException {
        return adapter.columns(connection, schema, table, columns);
    }

    /** The source's foreign-key probe over this table's connection. */
    public SourceKeyProbe keyProbe() {
        return adapter.keyProbe(connection);
    }

    /** e.g. {@code public.orders}, for messages. */
    public String shown() {
        return schema + "." + table;
    }
}

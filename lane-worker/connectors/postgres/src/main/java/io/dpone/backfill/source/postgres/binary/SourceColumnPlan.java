package io.dpone.backfill.source.postgres.binary;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What to copy from one source table and how to decode it: the columns in load order, each with its projection
 * and arriving type. Built by {@link SourceColumnPlanner}, which has already refused every unsupported type.
 */
public final class SourceColumnPlan {
    private final String schema;
    private final String table;
    private final List<PlannedColumn> columns;

    SourceColumnPlan(String schema, String table, List<PlannedColumn> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a source plan needs at least one column");
        }
        this.schema = schema;
        this.table = table;
        this.columns = List.copyOf(columns);
    }

    public String schema() {
        return schema;
    }

    public String table() {
        return table;
    }

    public List<PlannedColumn> columns() {
        return columns;
    }

    public String selectList() {
        return columns.stream().map(PlannedColumn::projection).collect(Collectors.joining(", "));
    }

    /**
     * The COPY statement for the rows matching {@code predicate}, a boolean SQL expression the caller built from
     * trusted parts (the chunk range), or null for every row.
     */
    public String copyStatement(String predicate) {
        StringBuilder sql = new StringBuilder("COPY (SELECT ").append(selectList())
                .append(" FROM ").append(SqlIdentifier.quote(schema)).append('.').append(SqlIdentifier.quote(table));
        if (predicate != null && !predicate.isBlank()) {
            sql.append(" WHERE (").append(predicate).append(')');
        }
        return sql.append(") TO STDOUT (FORMAT binary)").toString();
    }
}

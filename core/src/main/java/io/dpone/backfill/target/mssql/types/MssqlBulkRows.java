package io.dpone.backfill.target.mssql.types;

import com.microsoft.sqlserver.jdbc.ISQLServerBulkData;

import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Decoded PostgreSQL rows as SQLServerBulkCopy reads them: columns described by their bindings (1-based ordinals,
 * named as the target columns, so the driver maps by name), each value guarded and converted as the row is handed
 * over. A refused value ends the copy with {@link MssqlValueRejectedException}; the caller rolls the chunk back.
 */
public final class MssqlBulkRows implements ISQLServerBulkData {
    private static final long serialVersionUID = 1L;

    private final transient List<MssqlColumnBinding> bindings;
    private final transient DecodedRows rows;
    private final transient Function<Object[], String> rowKey;
    private transient Object[] current;

    /**
     * @param bindings one per decoded column, in the rows' order
     * @param rows     the decoded rows
     * @param rowKey   prints a row's key for a refusal (e.g. {@code id=42}); called only when a value is refused
     */
    public MssqlBulkRows(List<MssqlColumnBinding> bindings, DecodedRows rows, Function<Object[], String> rowKey) {
        if (bindings.isEmpty()) {
            throw new IllegalArgumentException("a bulk copy needs at least one column");
        }
        this.bindings = List.copyOf(bindings);
        this.rows = rows;
        this.rowKey = rowKey;
    }

    @Override
    public Set<Integer> getColumnOrdinals() {
        Set<Integer> ordinals = new LinkedHashSet<>();
        for (int i = 1; i <= bindings.size(); i++) {
            ordinals.add(i);
        }
        return ordinals;
    }

    @Override
    public String getColumnName(int column) {
        return bulkColumn(column).name();
    }

    @Override
    public int getColumnType(int column) {
        return bulkColumn(column).jdbcType();
    }

    @Override
    public int getPrecision(int column) {
        return bulkColumn(column).precision();
    }

    @Override
    public int getScale(int column) {
        return bulkColumn(column).scale();
    }

    @Override
    public boolean next() throws SQLException {
        current = rows.nextRow();
        return current != null;
    }

    @Override
    public Object[] getRowData() throws SQLException {
        if (current == null) {
            throw new IllegalStateException("getRowData before next() or after the last row");
        }
        if (current.length != bindings.size()) {
            throw new IllegalStateException("a decoded row has " + current.length + " values for " + bindings.size() + " columns");
        }
        Object[] row = current;
        Object[] values = new Object[row.length];
        for (int i = 0; i < row.length; i++) {
            values[i] = bindings.get(i).bulkValue(row[i], () -> rowKey.apply(row));
        }
        return values;
    }

    private MssqlBulkColumn bulkColumn(int column) {
        return bindings.get(column - 1).bulkColumn();
    }
}

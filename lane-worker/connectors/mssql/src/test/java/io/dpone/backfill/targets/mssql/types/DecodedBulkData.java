package io.dpone.backfill.targets.mssql.types;

import com.microsoft.sqlserver.jdbc.ISQLServerBulkData;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Decoded rows as SQLServerBulkCopy reads them, for the type ITs: columns described by their bindings, each value
 * guarded and converted as the row is handed over. The product's chunk sink has its own (over ChunkRows); this one
 * reads any row source, so a type pair can be proven without a ledger or a chunk.
 */
final class DecodedBulkData implements ISQLServerBulkData {
    private static final long serialVersionUID = 1L;

    /** The next decoded row, or null after the last; the array may be reused. */
    @FunctionalInterface
    interface Rows {
        Object[] next() throws Exception;
    }

    private final transient List<MssqlColumnBinding> bindings;
    private final transient Rows rows;
    private final transient Function<Object[], String> rowKey;
    private transient Object[] current;

    DecodedBulkData(List<MssqlColumnBinding> bindings, Rows rows, Function<Object[], String> rowKey) {
        this.bindings = List.copyOf(bindings);
        this.rows = rows;
        this.rowKey = rowKey;
    }

    @Override
    public Set<Integer> getColumnOrdinals() {
        Set<Integer> ordinals = new TreeSet<>();
        for (int i = 1; i <= bindings.size(); i++) {
            ordinals.add(i);
        }
        return ordinals;
    }

    @Override
    public String getColumnName(int column) {
        return bindings.get(column - 1).bulkColumn().name();
    }

    @Override
    public int getColumnType(int column) {
        return bindings.get(column - 1).bulkColumn().jdbcType();
    }

    @Override
    public int getPrecision(int column) {
        return bindings.get(column - 1).bulkColumn().precision();
    }

    @Override
    public int getScale(int column) {
        return bindings.get(column - 1).bulkColumn().scale();
    }

    @Override
    public boolean next() throws SQLException {
        try {
            current = rows.next();
        } catch (SQLException e) {
            throw e;
        } catch (Exception e) {
            throw new SQLException("reading the decoded rows failed: " + e.getMessage(), e);
        }
        return current != null;
    }

    @Override
    public Object[] getRowData() throws SQLException {
        Object[] row = current;
        Object[] values = new Object[row.length];
        for (int i = 0; i < row.length; i++) {
            values[i] = bindings.get(i).bulkValue(row[i], () -> rowKey.apply(row));
        }
        return values;
    }
}

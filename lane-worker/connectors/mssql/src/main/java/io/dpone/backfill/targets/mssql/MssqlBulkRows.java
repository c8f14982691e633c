package io.dpone.backfill.targets.mssql;

import com.microsoft.sqlserver.jdbc.ISQLServerBulkData;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.targets.mssql.types.MssqlBulkColumn;
import io.dpone.backfill.targets.mssql.types.MssqlColumnBinding;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A chunk's decoded rows as SQLServerBulkCopy pulls them: each value guarded and converted by its column binding as
 * the row is handed over, one row held at a time. The bulk copy only sees SQLExceptions, so the first failure of the
 * rows themselves (a guard, the source) is kept and rethrown by the sink as it was.
 */
final class MssqlBulkRows implements ISQLServerBulkData {
    private static final long serialVersionUID = 1L;

    private final transient ChunkRows rows;
    private final transient List<MssqlColumnBinding> bindings;
    private final transient int[] keyIndexes;
    private final transient Object[] out;
    private transient Exception failure;
    private long handedOver;

    MssqlBulkRows(ChunkRows rows, List<MssqlColumnBinding> bindings, int[] keyIndexes) {
        this.rows = rows;
        this.bindings = bindings;
        this.keyIndexes = keyIndexes;
        this.out = new Object[bindings.size()];
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
        return bulk(column).name();
    }

    @Override
    public int getColumnType(int column) {
        return bulk(column).jdbcType();
    }

    @Override
    public int getPrecision(int column) {
        return bulk(column).precision();
    }

    @Override
    public int getScale(int column) {
        return bulk(column).scale();
    }

    @Override
    public boolean next() throws SQLException {
        try {
            return rows.next();
        } catch (Exception e) {
            throw kept(e);
        }
    }

    @Override
    public Object[] getRowData() throws SQLException {
        Object[] values = rows.values();
        try {
            for (int i = 0; i < out.length; i++) {
                out[i] = bindings.get(i).bulkValue(values[i], () -> key(values));
            }
        } catch (Exception e) {
            throw kept(e);
        }
        handedOver++;
        return out;
    }

    /** Rows the bulk copy took; with no triggers and no IGNORE_DUP_KEY on the load table, the rows it inserts. */
    long handedOver() {
        return handedOver;
    }

    /** The rows' own failure behind a bulk copy error, or null. */
    Exception failure() {
        return failure;
    }

    private SQLException kept(Exception e) {
        if (failure == null) {
            failure = e;
        }
        return new SQLException(e.getMessage(), e);
    }

    private String key(Object[] values) {
        return java.util.Arrays.stream(keyIndexes).mapToObj(i -> String.valueOf(values[i])).collect(Collectors.joining(", ", "(", ")"));
    }

    private MssqlBulkColumn bulk(int column) {
        return bindings.get(column - 1).bulkColumn();
    }
}

package io.dpone.backfill.targets.mssql;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.mssql.publish.MssqlLoadShape;
import io.dpone.backfill.targets.mssql.types.MssqlColumn;
import io.dpone.backfill.targets.mssql.types.MssqlColumnBinding;
import io.dpone.backfill.targets.mssql.types.MssqlTypeCheck;
import io.dpone.backfill.targets.mssql.types.MssqlTypeMap;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Decoded source rows written into one SQL Server table with SQLServerBulkCopy on the caller's connection, so inside
 * whatever transaction it has open: no internal transaction, one batch, no timeout cutting a long stream, identity
 * values kept, NULLs kept; a table lock only where the table's shape makes it a shared bulk update lock
 * ({@link MssqlLoadShape}: a heap shadow), so concurrent lanes never serialize on lock escalation. Each source column is paired with its target column once, by the type
 * map; a pair it refuses fails here, naming both columns.
 */
public final class MssqlBulkLoad {
    private final Connection target;
    private final String destination;
    private final List<String> columns;
    private final List<MssqlColumnBinding> bindings;
    private final int[] keyIndexes;
    private final MssqlLoadShape shape;

    private MssqlBulkLoad(Connection target, String destination, List<String> columns, List<MssqlColumnBinding> bindings,
                          int[] keyIndexes, MssqlLoadShape shape) {
        this.target = target;
        this.destination = destination;
        this.columns = columns;
        this.bindings = bindings;
        this.keyIndexes = keyIndexes;
        this.shape = shape;
    }

    /** Reads both catalogs once and pairs {@code columns} (loaded in this order) source to target. */
    public static MssqlBulkLoad bind(SourceTable source, Connection target, String targetSchema, String targetTable,
                                     List<String> columns, List<String> keyColumns) throws SQLException {
        return bind(source, columns, target, targetSchema, targetTable, columns, keyColumns);
    }

    /**
     * The same, {@code sourceColumns} loading {@code columns} pair by pair (issue 27); {@code keyColumns} are target
     * names.
     */
    public static MssqlBulkLoad bind(SourceTable source, List<String> sourceColumns, Connection target, String targetSchema,
                                     String targetTable, List<String> columns, List<String> keyColumns) throws SQLException {
        List<SourceColumn> sources = source.columns(sourceColumns);
        List<MssqlColumn> targets = MssqlTableColumns.of(target, targetSchema, targetTable, columns);
        List<MssqlColumnBinding> paired = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            MssqlTypeCheck check = MssqlTypeMap.check(sources.get(i), targets.get(i));
            if (!check.isCompatible()) {
                throw new SQLException(check.message());
            }
            paired.add(check.binding());
        }
        int[] keys = keyColumns.stream().mapToInt(columns::indexOf).filter(i -> i >= 0).toArray();
        String destination = MssqlIdentifiers.quote(targetSchema) + "." + MssqlIdentifiers.quote(targetTable);
        return new MssqlBulkLoad(target, destination, List.copyOf(columns), List.copyOf(paired), keys,
                MssqlLoadShape.read(target, destination));
    }

    /**
     * A load of {@code columns} (target names, bound by {@code bindings} in that order) into a staging table of the
     * caller's session, e.g. a {@code #temp} table a reconciliation pass stages the source's rows in: the same bulk
     * path as the lanes', without a table lock (a session's own temporary table has no other writer).
     */
    public static MssqlBulkLoad staging(Connection target, String destination, List<String> columns,
                                        List<MssqlColumnBinding> bindings) {
        if (columns.size() != bindings.size()) {
            throw new IllegalArgumentException(columns.size() + " staged column(s) but " + bindings.size() + " binding(s)");
        }
        return new MssqlBulkLoad(target, destination, List.copyOf(columns), List.copyOf(bindings), new int[0],
                MssqlLoadShape.OTHER);
    }

    /**
     * Streams every row of {@code rows} into the table; returns the rows handed to the bulk copy (with no triggers
     * and no IGNORE_DUP_KEY on the table, the rows it inserted). A failure of the rows themselves (a guard, the
     * source) is rethrown as it was, not as the bulk copy's wrapper.
     */
    public long write(ChunkRows rows) throws Exception {
        MssqlBulkRows bulkRows = new MssqlBulkRows(rows, bindings, keyIndexes);
        try (SQLServerBulkCopy bulk = new SQLServerBulkCopy(target)) {
            bulk.setBulkCopyOptions(options(shape));
            bulk.setDestinationTableName(destination);
            for (int i = 0; i < columns.size(); i++) {
                bulk.addColumnMapping(i + 1, columns.get(i));
            }
            bulk.writeToServer(bulkRows);
        } catch (SQLException e) {
            if (bulkRows.failure() != null) {
                throw bulkRows.failure();
            }
            throw e;
        }
        return bulkRows.handedOver();
    }

    /** The copy options for a table of {@code shape}; only the table lock depends on it. */
    static SQLServerBulkCopyOptions options(MssqlLoadShape shape) throws SQLException {
        SQLServerBulkCopyOptions options = new SQLServerBulkCopyOptions();
        options.setUseInternalTransaction(false);
        options.setTableLock(shape.tableLock());
        options.setBatchSize(0);
        options.setBulkCopyTimeout(0);
        options.setKeepIdentity(true);
        options.setKeepNulls(true);
        return options;
    }

    @Override
    public String toString() {
        return "bulk load into " + destination + " (" + shape + ") " + columns + " keys " + Arrays.toString(keyIndexes);
    }
}

package io.dpone.backfill.targets.mssql.ledger;

import com.microsoft.sqlserver.jdbc.ISQLServerBulkData;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Set;

/**
 * A plan's chunks as new ledger rows, streamed with {@link SQLServerBulkCopy} into the chunk table on the state
 * connection, inside its open transaction: one bulk load instead of thousands of parameterised rows (16384 chunks
 * in a fraction of a second), with constraints checked so the foreign key to the campaign stays trusted. The other
 * columns take their defaults (state pending, epoch 0).
 */
final class MssqlPlannedChunks implements ISQLServerBulkData {
    private static final String[] COLUMNS = {"run_key", "chunk_id", "lower_bound", "upper_bound"};

    private final String runKey;
    private final ChunkPlan plan;
    private int index = -1;

    private MssqlPlannedChunks(String runKey, ChunkPlan plan) {
        this.runKey = runKey;
        this.plan = plan;
    }

    /** Inserts every chunk of {@code plan} for {@code runKey} into {@code chunkTable} within the open transaction. */
    static void insert(Connection connection, String chunkTable, String runKey, ChunkPlan plan) throws SQLException {
        SQLServerBulkCopyOptions options = new SQLServerBulkCopyOptions();
        options.setCheckConstraints(true);
        options.setUseInternalTransaction(false);
        options.setBatchSize(0);
        options.setBulkCopyTimeout(0);
        try (SQLServerBulkCopy bulk = new SQLServerBulkCopy(connection)) {
            bulk.setBulkCopyOptions(options);
            bulk.setDestinationTableName(chunkTable);
            for (int i = 0; i < COLUMNS.length; i++) {
                bulk.addColumnMapping(i + 1, COLUMNS[i]);
            }
            bulk.writeToServer(new MssqlPlannedChunks(runKey, plan));
        }
    }

    @Override
    public Set<Integer> getColumnOrdinals() {
        return Set.of(1, 2, 3, 4);
    }

    @Override
    public String getColumnName(int column) {
        return COLUMNS[column - 1];
    }

    @Override
    public int getColumnType(int column) {
        return column == 2 ? Types.INTEGER : Types.NVARCHAR;
    }

    @Override
    public int getPrecision(int column) {
        return switch (column) {
            case 1 -> 128;
            case 2 -> 10;
            default -> 256;
        };
    }

    @Override
    public int getScale(int column) {
        return 0;
    }

    @Override
    public Object[] getRowData() {
        ChunkRange range = plan.chunk(index);
        return new Object[] {runKey, range.id(), plan.boundText(range.lowerInclusive()),
                plan.boundText(range.upperExclusive())};
    }

    @Override
    public boolean next() {
        return ++index < plan.size();
    }
}

package io.dpone.backfill.target.mssql.publish;

import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.target.SwapTransactions;

import java.sql.Connection;
import java.time.Duration;

/**
 * SQL Server's swap transaction: {@link MssqlShadowTransaction} opens it (SET LOCK_TIMEOUT, XACT_ABORT and the
 * transaction-owned target lock), then the work runs over {@link MssqlSwapSteps} on the same connection.
 */
final class MssqlSwapTransactions implements SwapTransactions {
    private final Connection target;
    private final String stateSchema;
    private final Duration lockTimeout;

    MssqlSwapTransactions(Connection target, String stateSchema, Duration lockTimeout) {
        this.target = target;
        this.stateSchema = stateSchema;
        this.lockTimeout = lockTimeout;
    }

    @Override
    public <T> T run(String action, ArtifactNames names, String liveTable, Work<T> work) {
        return MssqlShadowTransaction.run(target, action, names.schema(), liveTable, lockTimeout,
                c -> work.run(new MssqlSwapSteps(c, names.schema(), stateSchema)));
    }
}

package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.publish.SwapTransactions;
import io.dpone.backfill.targets.mssql.ledger.MssqlPublicationLedger;

import java.sql.Connection;
import java.time.Duration;

/**
 * SQL Server's swap transaction: {@link MssqlShadowTransaction} opens it (SET LOCK_TIMEOUT, XACT_ABORT and the
 * transaction-owned target lock), then the work runs over {@link MssqlSwapSteps} and the
 * ledger's publication part on the same connection.
 */
record MssqlSwapTransactions(Connection target, String stateSchema, Duration lockTimeout) implements SwapTransactions {
    @Override
    public <T> T runAll(String action, String schema, java.util.List<String> liveTables, Work<T> work) {
        return MssqlShadowTransaction.run(target, action, schema, liveTables, lockTimeout,
                c -> work.run(new MssqlSwapSteps(c, schema, liveTables), new MssqlPublicationLedger(c, stateSchema)));
    }
}

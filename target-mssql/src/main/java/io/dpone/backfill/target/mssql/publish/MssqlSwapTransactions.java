package io.dpone.backfill.target.mssql.publish;

import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.target.SwapTransactions;
import io.dpone.backfill.target.mssql.ledger.MssqlPublicationLedger;

import java.sql.Connection;
import java.time.Duration;

/**
 * SQL Server's swap transaction: {@link MssqlShadowTransaction} opens it (SET LOCK_TIMEOUT, XACT_ABORT and the
 * transaction-owned target lock), then the work runs over {@link MssqlSwapSteps} and the
 * ledger's publication part on the same connection.
 */
record MssqlSwapTransactions(Connection target, String stateSchema, Duration lockTimeout) implements SwapTransactions {
    @Override
    public <T> T run(String action, ArtifactNames names, String liveTable, Work<T> work) {
        return MssqlShadowTransaction.run(target, action, names.schema(), liveTable, lockTimeout,
                c -> work.run(new MssqlSwapSteps(c, names.schema()), new MssqlPublicationLedger(c, stateSchema)));
    }
}

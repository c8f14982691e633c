package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.core.publish.SwapTransactions;
import io.dpone.backfill.targets.postgres.ledger.PostgresReceiptStatements;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;

/**
 * PostgreSQL's swap transaction: {@link PostgresShadowTransaction} opens it (READ COMMITTED), then the lock timeout,
 * a pinned search path and the target lock, then the work over {@link PostgresSwapSteps} and the ledger's
 * receipts on the same connection.
 */
record PostgresSwapTransactions(Connection target, String stateSchema, Duration lockTimeout) implements SwapTransactions {
    @Override
    public <T> T runAll(String action, String schema, List<String> liveTables, Work<T> work) {
        return PostgresShadowTransaction.run(target, action, c -> {
            PostgresShadowTransaction.lockTimeout(c, lockTimeout);
            PostgresShadowTransaction.pinSearchPath(c);
            for (String liveTable : new TreeSet<>(liveTables)) {
                PostgresShadowTransaction.lockTarget(c, schema, liveTable);
            }
            return work.run(new PostgresSwapSteps(c, schema), new PostgresReceiptStatements(c, stateSchema));
        });
    }
}

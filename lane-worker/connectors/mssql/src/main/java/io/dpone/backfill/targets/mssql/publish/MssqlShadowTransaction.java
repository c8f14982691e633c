package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.MssqlAppLock;
import io.dpone.backfill.targets.mssql.MssqlFailures;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Runs one unit of work in its own explicit transaction on a connection in auto-commit mode, under the
 * transaction-owned application lock of the target table. The transaction is opened with BEGIN TRANSACTION rather
 * than the driver's implicit-transaction mode, because {@code sp_getapplock} with {@code @LockOwner = 'Transaction'}
 * must run inside a transaction and, in implicit mode, an EXEC does not open one. {@code SET XACT_ABORT ON} makes any
 * error roll the whole transaction back; {@code SET LOCK_TIMEOUT} bounds every wait for a lock.
 */
final class MssqlShadowTransaction {
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private MssqlShadowTransaction() {
    }

    static <T> T run(Connection connection, String action, String schema, String liveTable, Duration lockTimeout,
                     Work<T> work) {
        return run(connection, action, schema, java.util.List.of(liveTable), lockTimeout, work);
    }

    /** One transaction under the application lock of each of {@code liveTables}, taken in name order. */
    static <T> T run(Connection connection, String action, String schema, java.util.List<String> liveTables,
                     Duration lockTimeout, Work<T> work) {
        try {
            // A caller's open transaction would be committed with ours: refuse rather than guess.
            if (!connection.getAutoCommit()) {
                throw new IllegalStateException(action + ": the connection must be in auto-commit mode;"
                        + " the SQL Server publisher runs its own transactions");
            }
            execute(connection, "SET LOCK_TIMEOUT " + lockTimeout.toMillis() + "; SET XACT_ABORT ON; BEGIN TRANSACTION");
            try {
                for (String liveTable : new java.util.TreeSet<>(liveTables)) {
                    MssqlAppLock.acquireInTransaction(connection, lockName(schema, liveTable), lockTimeout);
                }
                T result = work.run(connection);
                execute(connection, "COMMIT TRANSACTION");
                return result;
            } catch (SQLException | RuntimeException e) {
                try {
                    execute(connection, "IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION");
                } catch (SQLException rollbackFailure) {
                    e.addSuppressed(rollbackFailure);
                }
                throw e;
            }
        } catch (SQLException e) {
            throw MssqlFailures.of(action + ": " + e.getMessage(), e);
        }
    }

    /**
     * Serialises shadow DDL, publication and rollback of one live table across processes. Keyed on the configured
     * live name, which stays stable across the swap; length-prefixed so no two (schema, table) pairs collide.
     */
    static String lockName(String schema, String liveTable) {
        return "dpone-backfill-target:" + schema.length() + ":" + schema + "." + liveTable;
    }

    static void execute(Connection connection, String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }
}

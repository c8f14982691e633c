package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.postgres.PostgresSqlException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Runs one unit of work in its own transaction on a connection in auto-commit mode, and holds the session settings
 * every shadow and swap transaction shares: the advisory lock on the target table, {@code lock_timeout} and a
 * search path pinned to {@code pg_catalog}.
 */
public final class PostgresShadowTransaction {
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private PostgresShadowTransaction() {
    }

    static <T> T run(Connection connection, String action, Work<T> work) {
        try {
            // A caller's open transaction would be committed with ours: refuse rather than guess.
            if (!connection.getAutoCommit()) {
                throw new IllegalStateException(action + ": the connection must be in auto-commit mode;"
                        + " the PostgreSQL publisher runs its own transactions");
            }
            return new PostgresJdbc(connection).inTransaction(() -> {
                // Whatever the database's default: under REPEATABLE READ the lease fence at the swap's end (ADR 0024)
                // would fail on any renewal committed while the swap ran.
                PostgresShadowSql.execute(connection, "SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
                return work.run(connection);
            });
        } catch (SQLException e) {
            throw new PostgresSqlException(action, e);
        }
    }

    /**
     * Serialises shadow DDL, publication and rollback of one live table across processes; released at commit or
     * rollback. The key is the configured live name, which stays stable across the swap.
     */
    static void lockTarget(Connection connection, String schema, String liveTable) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(?, 0))")) {
            // Length-prefixed so that no two (schema, table) pairs produce the same text.
            ps.setString(1, "dpone-backfill-target:" + schema.length() + ":" + schema + "." + liveTable);
            ps.execute();
        }
    }

    /**
     * Blocks writers of a table until the transaction ends (SHARE ROW EXCLUSIVE waits for in-flight writers, within
     * lock_timeout, and lets readers on): every write committed before it is visible to the statements after it.
     */
    static void blockWriters(Connection connection, String schema, String table) throws SQLException {
        lockTable(connection, schema, table, "SHARE ROW EXCLUSIVE");
    }

    /**
     * ACCESS EXCLUSIVE on a table the swap is about to rename, taken before the swap changes any of its catalog
     * rows: an autovacuum holding the table ends by updating the table's pg_class row in place, which waits for any
     * transaction that changed that row; changing it first and waiting for the lock after is a deadlock (40P01).
     * Waiting first lets the server cancel the vacuum, which blocks us.
     */
    static void lockExclusive(Connection connection, String schema, String table) throws SQLException {
        lockTable(connection, schema, table, "ACCESS EXCLUSIVE");
    }

    private static void lockTable(Connection connection, String schema, String table, String mode) throws SQLException {
        PostgresShadowSql.execute(connection, "LOCK TABLE " + PostgresIdentifiers.qualified(schema, table) + " IN " + mode + " MODE");
    }

    /** SET LOCAL lock_timeout: a swap waits a bounded time for readers of the live table, then fails transiently. */
    static void lockTimeout(Connection connection, Duration timeout) throws SQLException {
        setLocal(connection, "lock_timeout", timeout.toMillis() + "ms");
    }

    /**
     * SET LOCAL search_path = pg_catalog: catalog functions then print every user object schema-qualified, and
     * nothing we run can resolve to an object someone placed earlier on the caller's path.
     */
    static void pinSearchPath(Connection connection) throws SQLException {
        setLocal(connection, "search_path", "pg_catalog");
    }

    private static void setLocal(Connection connection, String name, String value) throws SQLException {
        new PostgresJdbc(connection).setLocal(name, value);
    }
}

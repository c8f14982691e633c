package io.dpone.backfill.targets.ledger;

import java.sql.SQLException;

/**
 * What the ledger needs of its target's state connection beyond the statements: the schema, a transaction, and
 * how this database's errors read. Each target implements it over its JDBC connection, which stays in autocommit
 * between calls.
 */
public interface LedgerConnection {

    /** Applies the ledger schema script (idempotent) and returns the version the ledger now holds, null if none. */
    Integer applySchema() throws SQLException;

    /** The schema version this build writes. */
    int schemaVersion();

    /** Runs {@code work} in one short transaction, committed when it returns, rolled back when it throws. */
    <T> T inTransaction(LedgerWork<T> work) throws SQLException;

    /** True when {@code e} says a unique key refused an insert (a concurrent creator won). */
    boolean isDuplicateKey(SQLException e);

    /** The longest lease this database's statements can express, in milliseconds. */
    long maxLeaseMillis();

    /**
     * {@code e} as the classified database failure (transient or permanent, with a reason) of {@code operation},
     * with this database's error code and SQL state in the message and {@code e} as the cause.
     */
    RuntimeException failure(String operation, SQLException e);
}

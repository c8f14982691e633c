package io.dpone.backfill.postgres;

import io.dpone.backfill.core.engine.DatabaseFailureException;

import java.sql.SQLException;

/**
 * A statement of the PostgreSQL shadow, swap or catalog adapters failed. The transaction it ran in was rolled back,
 * so nothing it was part of took effect; its kind ({@link PostgresFailures}) tells a retry-worthy failure (lock
 * timeout, lost connection, serialization failure) from a permanent one.
 */
public class PostgresSqlException extends DatabaseFailureException {
    private final String sqlState;

    public PostgresSqlException(String action, SQLException cause) {
        this(action, cause, PostgresFailures.classify(cause.getSQLState()));
    }

    private PostgresSqlException(String action, SQLException cause, PostgresFailures.Classified kind) {
        super(kind.kind(), kind.reason(), action + " failed: " + cause.getMessage() + " (SQLSTATE " + cause.getSQLState() + ")", cause);
        this.sqlState = cause.getSQLState();
    }

    public String sqlState() {
        return sqlState;
    }
}

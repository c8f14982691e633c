package io.dpone.backfill.postgres;

import java.sql.SQLException;
import java.util.Set;

/**
 * A statement of the PostgreSQL shadow, swap or catalog adapters failed. The transaction it ran in was rolled back,
 * so nothing it was part of took effect; {@link #isTransient()} tells a retry-worthy failure (lock timeout, lost
 * connection, serialization failure) from a permanent one.
 */
public class PostgresShadowSqlException extends RuntimeException {
    private static final Set<String> TRANSIENT_STATES = Set.of("55P03", "40001", "40P01", "57014", "57P01");

    private final String sqlState;

    public PostgresShadowSqlException(String action, SQLException cause) {
        super(action + " failed: " + cause.getMessage() + " (SQLSTATE " + cause.getSQLState() + ")", cause);
        this.sqlState = cause.getSQLState();
    }

    public String sqlState() {
        return sqlState;
    }

    public boolean isTransient() {
        return sqlState != null && (sqlState.startsWith("08") || TRANSIENT_STATES.contains(sqlState));
    }
}

package io.dpone.backfill.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one JDBC helper of the PostgreSQL halves: bind parameters, map rows, run one transaction on one connection.
 */
public final class PostgresJdbc {
    public static final String UNIQUE_VIOLATION = "23505";

    @FunctionalInterface
    public interface Work<T> {
        T run() throws SQLException;
    }

    @FunctionalInterface
    public interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private final Connection connection;

    public PostgresJdbc(Connection connection) {
        this.connection = connection;
    }

    public Connection connection() {
        return connection;
    }

    public int update(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params)) {
            return ps.executeUpdate();
        }
    }

    /** The first row (of a query or an {@code UPDATE ... RETURNING}), or empty. */
    public <T> Optional<T> one(String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(row.map(rs)) : Optional.empty();
        }
    }

    public <T> List<T> list(String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params); ResultSet rs = ps.executeQuery()) {
            List<T> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(row.map(rs));
            }
            return rows;
        }
    }

    /**
     * Runs {@code work} in one transaction: commit on return, roll back on any error, and the connection's
     * autocommit mode restored either way so the connection is never left inside a transaction. A failure to
     * roll back or restore is added to the original error, never put in its place.
     */
    public <T> T inTransaction(Work<T> work) throws SQLException {
        try {
            return inTransactionOf(work::run);
        } catch (SQLException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e); // Work throws only SQLException
        }
    }

    /** Work that also streams (reads rows, copies them in) and so may fail otherwise than by SQL. */
    public interface Step<T> {
        T run() throws Exception;
    }

    /** {@link #inTransaction} for a {@link Step}. */
    public <T> T inTransactionOf(Step<T> work) throws Exception {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        Throwable failure = null;
        try {
            T result = work.run();
            connection.commit();
            return result;
        } catch (Exception | Error e) {
            failure = e;
            try {
                connection.rollback();
            } catch (SQLException rollbackFailure) {
                e.addSuppressed(rollbackFailure);
            }
            throw e;
        } finally {
            try {
                connection.setAutoCommit(autoCommit);
            } catch (SQLException restoreFailure) {
                if (failure == null) {
                    throw restoreFailure;
                }
                failure.addSuppressed(restoreFailure);
            }
        }
    }

    /** {@code SET LOCAL name = value}, bound rather than spliced: lasts until the current transaction ends. */
    public void setLocal(String name, String value) throws SQLException {
        try (PreparedStatement ps = prepare("SELECT pg_catalog.set_config(?, ?, true)", name, value)) {
            ps.execute();
        }
    }

    /** The first column of the first row as a boolean; null when there is no row. */
    public Boolean bool(String sql, Object... params) throws SQLException {
        return one(sql, rs -> rs.getBoolean(1), params).orElse(null);
    }

    /** The first column of every row as text. */
    public List<String> strings(String sql, Object... params) throws SQLException {
        return list(sql, rs -> rs.getString(1), params);
    }

    public static OffsetDateTime timestamp(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    private PreparedStatement prepare(String sql, Object... params) throws SQLException {
        PreparedStatement ps = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }
}

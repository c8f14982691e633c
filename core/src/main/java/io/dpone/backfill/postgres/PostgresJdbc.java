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

/** Statement plumbing of the ledger store: bind parameters, map rows, run short transactions on one connection. */
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
     * autocommit mode restored either way so the state connection is never left inside a transaction.
     */
    public <T> T inTransaction(Work<T> work) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            T result = work.run();
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                connection.rollback();
            } catch (SQLException rollbackFailure) {
                e.addSuppressed(rollbackFailure);
            }
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
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

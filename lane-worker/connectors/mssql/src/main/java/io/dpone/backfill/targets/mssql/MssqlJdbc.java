package io.dpone.backfill.targets.mssql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Statement plumbing on one SQL Server connection, for the ledger and reconciliation passes: values always bound,
 * never inlined; rows mapped; short transactions.
 */
public final class MssqlJdbc {
    /** A null bound with its type, where the type decides (a null time inside COALESCE with SYSUTCDATETIME()). */
    public record TypedNull(int sqlType) {
    }

    public static final TypedNull NULL_TIME = new TypedNull(Types.TIMESTAMP);

    @FunctionalInterface
    public interface Work<T, E extends Exception> {
        T run() throws E;
    }

    @FunctionalInterface
    public interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private final Connection connection;

    public MssqlJdbc(Connection connection) {
        this.connection = connection;
    }

    public Connection connection() {
        return connection;
    }

    /** A statement without parameters or results (session settings). */
    public void execute(String sql) throws SQLException {
        try (java.sql.Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    public int update(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params)) {
            return ps.executeUpdate();
        }
    }

    /**
     * Runs one statement once per parameter set, prepared once and sent as one JDBC batch: one parse and one round
     * trip however many sets (the many-row chunk writes).
     */
    public void batch(String sql, List<Object[]> paramSets) throws SQLException {
        if (paramSets.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (Object[] params : paramSets) {
                for (int i = 0; i < params.length; i++) {
                    bind(ps, i + 1, params[i]);
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The first row (of a query, or of an UPDATE's OUTPUT clause), or empty. */
    public <T> Optional<T> one(String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.ofNullable(row.map(rs)) : Optional.empty();
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
    public <T, E extends Exception> T inTransaction(Work<T, E> work) throws E, SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            T result = work.run();
            connection.commit();
            return result;
        } catch (Exception | Error e) {
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

    /** A UTC instant as the datetime2 the ledger stores (the ledger's times are UTC without an offset). */
    public static Object time(Instant instant) {
        return instant == null ? NULL_TIME : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    public static Instant instant(ResultSet rs, String column) throws SQLException {
        LocalDateTime value = rs.getObject(column, LocalDateTime.class);
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }

    private PreparedStatement prepare(String sql, Object... params) throws SQLException {
        PreparedStatement ps = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < params.length; i++) {
                bind(ps, i + 1, params[i]);
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    private static void bind(PreparedStatement ps, int index, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.NVARCHAR);
        } else if (value instanceof TypedNull typed) {
            ps.setNull(index, typed.sqlType());
        } else if (value instanceof String text) {
            ps.setString(index, text);
        } else {
            ps.setObject(index, value);
        }
    }
}

package io.dpone.backfill.targets.mssql.ledger;

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

/** Statement plumbing of the SQL Server ledger: bind parameters, map rows, run short transactions on one connection. */
final class MssqlLedgerSql {
    /** A null bound with its type, where the type decides (a null time inside COALESCE with SYSUTCDATETIME()). */
    record TypedNull(int sqlType) {
    }

    static final TypedNull NULL_TIME = new TypedNull(Types.TIMESTAMP);

    @FunctionalInterface
    interface Work<T> {
        T run() throws SQLException;
    }

    @FunctionalInterface
    interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private final Connection connection;

    MssqlLedgerSql(Connection connection) {
        this.connection = connection;
    }

    Connection connection() {
        return connection;
    }

    /** A statement without parameters or results (session settings). */
    void execute(String sql) throws SQLException {
        try (java.sql.Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    int update(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params)) {
            return ps.executeUpdate();
        }
    }

    /**
     * Runs one statement once per parameter set, prepared once and sent as one JDBC batch: one parse and one round
     * trip however many sets (the many-row chunk writes).
     */
    void batch(String sql, List<Object[]> paramSets) throws SQLException {
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
    <T> Optional<T> one(String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(row.map(rs)) : Optional.empty();
        }
    }

    <T> List<T> list(String sql, Row<T> row, Object... params) throws SQLException {
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
    <T> T inTransaction(Work<T> work) throws SQLException {
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

    /** A UTC instant as the datetime2 the ledger stores (the ledger's times are UTC without an offset). */
    static Object time(Instant instant) {
        return instant == null ? NULL_TIME : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
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

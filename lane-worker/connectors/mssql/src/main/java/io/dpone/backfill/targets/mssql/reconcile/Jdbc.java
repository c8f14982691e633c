package io.dpone.backfill.targets.mssql.reconcile;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Parameterised statements on one connection, for the pass's own classes; values are always bound, never inlined. */
final class Jdbc {
    private final Connection connection;

    Jdbc(Connection connection) {
        this.connection = connection;
    }

    Connection connection() {
        return connection;
    }

    interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    interface Work<T> {
        T run() throws Exception;
    }

    int update(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params)) {
            return ps.executeUpdate();
        }
    }

    <T> List<T> list(String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params); ResultSet rs = ps.executeQuery()) {
            List<T> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(row.read(rs));
            }
            return rows;
        }
    }

    <T> Optional<T> one(String sql, Row<T> row, Object... params) throws SQLException {
        List<T> rows = list(sql, row, params);
        return rows.isEmpty() ? Optional.empty() : Optional.ofNullable(rows.get(0));
    }

    /** {@code work} in one transaction: committed when it returns, rolled back when it throws. */
    <T> T inTransaction(Work<T> work) throws Exception {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            T result = work.run();
            connection.commit();
            return result;
        } catch (Exception | Error e) {
            try {
                connection.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private PreparedStatement prepare(String sql, Object... params) throws SQLException {
        PreparedStatement ps = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < params.length; i++) {
                Object value = params[i];
                if (value instanceof byte[] bytes) {
                    ps.setBytes(i + 1, bytes);
                } else {
                    ps.setObject(i + 1, value);
                }
            }
            return ps;
        } catch (SQLException e) {
            ps.close();
            throw e;
        }
    }
}

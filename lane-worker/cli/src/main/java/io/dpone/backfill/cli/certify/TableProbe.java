package io.dpone.backfill.cli.certify;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Reads certify needs on one server (the source, or the target with its scratch ledger), with bounded waits. */
public final class TableProbe {
    private final Connection connection;
    private final TargetDialect dialect;
    private final String schema;

    TableProbe(Connection connection, TargetDialect dialect, String schema) {
        this.connection = connection;
        this.dialect = dialect;
        this.schema = schema;
    }

    String table(String name) {
        return dialect.qualified(schema, name);
    }

    long count(String tableName) throws SQLException {
        return single(dialect.count(table(tableName)));
    }

    boolean exists(String tableName) {
        try (Statement s = connection.createStatement()) {
            s.setQueryTimeout(60);
            s.executeQuery("SELECT 1 FROM " + table(tableName) + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    long single(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setQueryTimeout(60);
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }

    String text(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setQueryTimeout(60);
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Rows of {@code sql}, each row's columns joined by U+0001, keys normalised for comparison across engines. */
    List<String> rows(String sql, Object... args) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setQueryTimeout(120);
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    StringBuilder b = new StringBuilder();
                    for (int i = 1; i <= n; i++) {
                        if (i > 1) {
                            b.append('\u0001');
                        }
                        b.append(dialect.normaliseKey(rs.getString(i)));
                    }
                    out.add(b.toString());
                }
            }
        }
        return out;
    }

    /** The key columns of a table, as one SELECT. */
    String selectKeys(String tableName, List<String> keyColumns) {
        return "SELECT " + String.join(", ", keyColumns.stream().map(dialect::quote).toList()) + " FROM " + table(tableName);
    }
}

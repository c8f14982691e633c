package io.dpone.backfill.targets.mssql.doctor;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The doctor's catalog reads on the target: parameterised, read only, one result set each. */
final class MssqlDoctorSql {
    private final Connection target;

    MssqlDoctorSql(Connection target) {
        this.target = target;
    }

    /** The first column of every row, as text. */
    List<String> strings(String sql, Object... parameters) throws SQLException {
        List<String> values = new ArrayList<>();
        try (PreparedStatement ps = prepare(sql, parameters); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    /** The first column of the first row as an int; null when there is no row or the value is NULL. */
    Integer integer(String sql, Object... parameters) throws SQLException {
        try (PreparedStatement ps = prepare(sql, parameters); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            int value = rs.getInt(1);
            return rs.wasNull() ? null : value;
        }
    }

    /** Every column of the first row as an int (NULL as null); empty when there is no row. */
    List<Integer> integers(String sql, Object... parameters) throws SQLException {
        List<Integer> values = new ArrayList<>();
        try (PreparedStatement ps = prepare(sql, parameters); ResultSet rs = ps.executeQuery()) {
            if (rs.next()) {
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    int value = rs.getInt(i);
                    values.add(rs.wasNull() ? null : value);
                }
            }
        }
        return values;
    }

    private PreparedStatement prepare(String sql, Object... parameters) throws SQLException {
        PreparedStatement ps = target.prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.length; i++) {
                if (parameters[i] instanceof String text) {
                    ps.setNString(i + 1, text);
                } else {
                    ps.setObject(i + 1, parameters[i]);
                }
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }
}

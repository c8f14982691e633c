package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.doctor.Finding;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Whether a PostgreSQL connection answers a query; every other check of that side depends on it. Every route's
 * source is PostgreSQL, so every target's doctor runs it on the source (and the PostgreSQL target on both sides).
 */
public final class PostgresDoctorConnectivity {
    private PostgresDoctorConnectivity() {
    }

    /** Adds {@code <side>.connection.ok} or {@code <side>.connection.failed}; returns whether the side is usable. */
    public static boolean check(Connection connection, String side, List<Finding> findings) {
        String code = side + ".connection";
        if (connection == null) {
            findings.add(Finding.error(code + ".failed", "no " + side + " connection was given",
                    "Check the " + side + " connection Secret (host, port, database, user, password)."));
            return false;
        }
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_catalog.current_database(), current_user")) {
            rs.next();
            findings.add(Finding.ok(code + ".ok", "connected to " + side + " database " + rs.getString(1)
                    + " as " + rs.getString(2)));
            return true;
        } catch (SQLException e) {
            findings.add(Finding.error(code + ".failed", "cannot query the " + side + " database: " + e.getMessage()
                    + " (SQLSTATE " + e.getSQLState() + ")", "Check the " + side + " connection Secret (host, port,"
                    + " database, user, password), that the server accepts connections from the operator's network,"
                    + " and that the database is up."));
            return false;
        }
    }
}

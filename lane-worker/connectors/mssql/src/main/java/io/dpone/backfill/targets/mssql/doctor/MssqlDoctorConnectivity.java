package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.doctor.Finding;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** Whether the SQL Server target answers a query; every other target check depends on it. */
final class MssqlDoctorConnectivity {
    private MssqlDoctorConnectivity() {
    }

    /** Adds {@code target.connection.ok} or {@code target.connection.failed}; returns whether the target is usable. */
    static boolean check(Connection target, List<Finding> findings) {
        if (target == null) {
            findings.add(Finding.error("target.connection.failed", "no target connection was given",
                    "Check the target connection Secret (host, port, database, user, password)."));
            return false;
        }
        try (Statement s = target.createStatement();
             ResultSet rs = s.executeQuery("SELECT DB_NAME(), SUSER_SNAME(), USER_NAME()")) {
            rs.next();
            findings.add(Finding.ok("target.connection.ok", "connected to target database " + rs.getString(1)
                    + " as login " + rs.getString(2) + " (database user " + rs.getString(3) + ")"));
            return true;
        } catch (SQLException e) {
            findings.add(Finding.error("target.connection.failed", "cannot query the target database: "
                    + e.getMessage() + " (error " + e.getErrorCode() + ")", "Check the target connection Secret (host,"
                    + " port, database, user, password), that SQL Server accepts connections from the operator's"
                    + " network (encrypt and trustServerCertificate in the URL), and that the database is online."));
            return false;
        }
    }
}

package io.dpone.backfill.wiring;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** How to reach one database. The password is never printed: {@link #toString()} leaves it out. */
public record ConnectionSettings(String jdbcUrl, String user, String password) {
    public Connection open(String applicationName) throws SQLException {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        p.setProperty("ApplicationName", applicationName);
        // Lanes hold connections for their life; a dead peer must surface as an error, not a hang.
        p.setProperty("tcpKeepAlive", "true");
        try {
            return DriverManager.getConnection(jdbcUrl, p);
        } catch (SQLException e) {
            throw new SQLException("cannot connect to " + redacted() + ": " + e.getMessage(), e.getSQLState(), e);
        }
    }

    /** The URL without query parameters, which may carry credentials. */
    public String redacted() {
        int q = jdbcUrl.indexOf('?');
        return q < 0 ? jdbcUrl : jdbcUrl.substring(0, q) + "?...";
    }

    @Override
    public String toString() {
        return "ConnectionSettings[" + redacted() + ", user=" + user + "]";
    }
}

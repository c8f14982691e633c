package io.dpone.backfill.connect;

import io.dpone.backfill.redaction.CredentialScrubber;
import io.dpone.backfill.redaction.KnownSecrets;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * How to reach one database: a URL for the endpoint's driver, credentials, and the endpoint that names the driver's
 * client properties. No credential is ever printed: {@link #toString()}, {@link #redacted()} and every error leave
 * them out, and building the settings tells {@link KnownSecrets} the password and any credential written into the URL,
 * so that output everywhere is scrubbed of them (ADR 0043).
 */
public record ConnectionSettings(String jdbcUrl, String user, String password, DatabaseEndpoint endpoint) {
    public ConnectionSettings {
        // Remembered before the URL is judged: the refusal below, or a driver's later, may echo them.
        KnownSecrets.remember(password);
        KnownSecrets.rememberCredentialsIn(jdbcUrl);
        if (jdbcUrl == null || !jdbcUrl.startsWith(endpoint.urlPrefix())) {
            throw new IllegalArgumentException("a " + endpoint.engine() + " connection needs a JDBC URL starting with "
                    + endpoint.urlPrefix() + ", not " + (jdbcUrl == null ? "none" : redact(jdbcUrl)));
        }
    }

    public Connection open(String applicationName) throws SQLException {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        // Lanes hold connections for their life; a dead peer must surface as an error, not a hang.
        endpoint.clientProperties(p, applicationName);
        try {
            return DriverManager.getConnection(jdbcUrl, p);
        } catch (SQLException e) {
            // A driver that cannot parse the URL quotes all of it (pgjdbc's "Unable to parse URL"), password included.
            throw new SQLException("cannot connect to " + redacted() + ": " + CredentialScrubber.scrub(e.getMessage()),
                    e.getSQLState(), e);
        }
    }

    /**
     * The URL without query parameters (PostgreSQL) or properties (SQL Server), which may carry credentials, and
     * without the password of a {@code user:password@} authority.
     */
    public String redacted() {
        return redact(jdbcUrl);
    }

    private static String redact(String url) {
        int q = url.indexOf('?');
        int semicolon = url.indexOf(';');
        int cut = q < 0 ? semicolon : semicolon < 0 ? q : Math.min(q, semicolon);
        return CredentialScrubber.scrub(cut < 0 ? url : url.substring(0, cut) + (url.charAt(cut) == '?' ? "?..." : ";..."));
    }

    @Override
    public String toString() {
        return "ConnectionSettings[" + redacted() + ", user=" + user + "]";
    }
}

package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.connect.DatabaseEndpoint;

import java.util.Properties;

/**
 * SQL Server and Azure SQL through Microsoft's JDBC driver. TLS and authentication settings ({@code encrypt},
 * {@code trustServerCertificate}, {@code authentication}, ...) pass through a Secret's {@code jdbcUrl}; a URL
 * composed from {@code host}/{@code port}/{@code database} takes the driver's defaults (encryption on, certificate
 * checked).
 */
public final class MssqlEndpoint implements DatabaseEndpoint {
    public static final MssqlEndpoint INSTANCE = new MssqlEndpoint();

    private MssqlEndpoint() {
    }

    @Override
    public String engine() {
        return "SQL Server";
    }

    @Override
    public String urlPrefix() {
        return "jdbc:sqlserver:";
    }

    @Override
    public String defaultPort() {
        return "1433";
    }

    @Override
    public String jdbcUrl(String host, String port, String database) {
        return "jdbc:sqlserver://" + host + ":" + port + ";databaseName=" + database;
    }

    /**
     * The driver's transparent reconnect, turned off for every connection, whatever a Secret's {@code jdbcUrl} says.
     * mssql-jdbc reconnects a broken idle connection by itself ({@code connectRetryCount}, default 1:
     * SQLServerDriver.java, {@code CONNECT_RETRY_COUNT("connectRetryCount", 1, 0, 255)}), and the new session has
     * none of the old one's session-owned application locks (sp_getapplock @LockOwner = 'Session', MssqlAppLock) or
     * SET options (LOCK_TIMEOUT, XACT_ABORT): a lane would carry on unfenced and unbounded. A lost connection must
     * surface as an error, which the lane handles by reconnecting and re-establishing both. Properties given here
     * override the URL's ({@code mergeURLAndSuppliedProperties}: "supplied properties have precedence").
     */
    public static final String CONNECT_RETRY_COUNT = "connectRetryCount";

    /** The driver enables TCP keep-alive on its sockets itself; the application name shows in sys.dm_exec_sessions. */
    @Override
    public void clientProperties(Properties properties, String applicationName) {
        properties.setProperty("applicationName", applicationName);
        properties.setProperty(CONNECT_RETRY_COUNT, "0");
        // Temporal values reach the bulk copy as text the server parses (MssqlBulkColumn): keep the driver on it.
        properties.setProperty("sendTemporalDataTypesAsStringForBulkCopy", "true");
    }
}

package io.dpone.backfill.connect;

import java.util.Properties;

/**
 * How one database engine is reached through its JDBC driver: the URL a Secret's {@code host}/{@code port}/
 * {@code database} keys compose, and the driver's own names for the client properties every connection sets.
 * One per engine, owned by that engine's adapter; nothing outside it writes a {@code jdbc:} URL.
 */
public interface DatabaseEndpoint {
    /** The engine's name in errors, e.g. {@code PostgreSQL}. */
    String engine();

    /** The URL prefix the engine's driver accepts, e.g. {@code jdbc:postgresql:}. */
    String urlPrefix();

    String defaultPort();

    /**
     * The JDBC URL for a host, port and database. The arguments may be kubelet {@code $(VAR)} references, so the
     * result is a template for lane pods as well as a URL.
     */
    String jdbcUrl(String host, String port, String database);

    /** Sets the driver's properties for the application name and for detecting a dead peer. */
    void clientProperties(Properties properties, String applicationName);
}

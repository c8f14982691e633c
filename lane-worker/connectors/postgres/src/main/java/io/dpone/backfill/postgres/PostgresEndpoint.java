package io.dpone.backfill.postgres;

import io.dpone.backfill.connect.DatabaseEndpoint;

import java.util.Properties;

/** PostgreSQL through pgjdbc: the source of every route, and a target type of its own. */
public final class PostgresEndpoint implements DatabaseEndpoint {
    public static final PostgresEndpoint INSTANCE = new PostgresEndpoint();

    private PostgresEndpoint() {
    }

    @Override
    public String engine() {
        return "PostgreSQL";
    }

    @Override
    public String urlPrefix() {
        return "jdbc:postgresql:";
    }

    @Override
    public String defaultPort() {
        return "5432";
    }

    @Override
    public String jdbcUrl(String host, String port, String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    @Override
    public void clientProperties(Properties properties, String applicationName) {
        properties.setProperty("ApplicationName", applicationName);
        properties.setProperty("tcpKeepAlive", "true");
    }
}

package io.dpone.backfill.wiring;

import java.util.Map;

/**
 * The keys of a connection Secret, shared by the CLI (Secret manifests) and the operator (Secrets from the API):
 * {@code jdbcUrl}, or {@code host} + {@code port} + {@code database}; {@code user} or {@code username};
 * {@code password}.
 */
public final class SecretConnection {
    public static final String JDBC_URL = "jdbcUrl";
    public static final String USER = "user";
    public static final String PASSWORD = "password";

    private SecretConnection() {
    }

    /** Connection settings from a Secret's decoded key/value pairs; {@code name} only names it in errors. */
    public static ConnectionSettings settings(String name, Map<String, String> secret) {
        String url = secret.get(JDBC_URL);
        if (url == null) {
            String host = secret.get("host");
            String database = secret.get("database");
            if (host == null || database == null) {
                throw new IllegalArgumentException("Secret '" + name + "' needs the key jdbcUrl, or host and database");
            }
            String port = secret.getOrDefault("port", "5432");
            url = "jdbc:postgresql://" + host + ":" + port + "/" + database;
        }
        String user = secret.containsKey(USER) ? secret.get(USER) : secret.get("username");
        return new ConnectionSettings(url, user, secret.get(PASSWORD));
    }
}

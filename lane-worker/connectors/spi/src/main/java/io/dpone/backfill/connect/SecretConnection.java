package io.dpone.backfill.connect;

import java.util.Map;

/**
 * The keys of a connection Secret, shared by the CLI (Secret manifests) and the operator (Secrets from the API):
 * {@code jdbcUrl}, or {@code host} + {@code port} + {@code database}; {@code user} or {@code username};
 * {@code password}. The endpoint of the database the Secret points at composes the URL.
 */
public final class SecretConnection {
    public static final String JDBC_URL = "jdbcUrl";
    public static final String HOST = "host";
    public static final String PORT = "port";
    public static final String DATABASE = "database";
    public static final String USER = "user";
    public static final String USERNAME = "username";
    public static final String PASSWORD = "password";

    private SecretConnection() {
    }

    /** Connection settings from a Secret's decoded key/value pairs; {@code name} only names it in errors. */
    public static ConnectionSettings settings(String name, Map<String, String> secret, DatabaseEndpoint endpoint) {
        String url = secret.get(JDBC_URL);
        if (url == null) {
            String host = secret.get(HOST);
            String database = secret.get(DATABASE);
            if (host == null || database == null) {
                throw new IllegalArgumentException("Secret '" + name + "' needs the key jdbcUrl, or host and database");
            }
            url = endpoint.jdbcUrl(host, secret.getOrDefault(PORT, endpoint.defaultPort()), database);
        } else if (!url.startsWith(endpoint.urlPrefix())) {
            throw new IllegalArgumentException("Secret '" + name + "' key jdbcUrl must start with " + endpoint.urlPrefix()
                    + " for a " + endpoint.engine() + " database");
        }
        String user = secret.containsKey(USER) ? secret.get(USER) : secret.get(USERNAME);
        return new ConnectionSettings(url, user, secret.get(PASSWORD), endpoint);
    }
}

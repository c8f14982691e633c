package io.dpone.backfill.connect;


import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Resolves the source and target connection settings of a campaign: from Secret manifests named by the campaign's
 * connectionSecretRef, else from the environment ({@code BACKFILL_SOURCE_JDBC_URL}, {@code _USER}, {@code _PASSWORD}
 * and the same for TARGET). Lane processes and pods always get the environment form.
 */
public final class CampaignConnections {
    public static final String SOURCE = "SOURCE";
    public static final String TARGET = "TARGET";

    private CampaignConnections() {
    }

    public static ConnectionSettings resolve(String role, String secretName, List<Path> secretFiles, Map<String, String> env,
                                             DatabaseEndpoint endpoint)
            throws IOException {
        if (!secretFiles.isEmpty()) {
            Map<String, String> secret = SecretManifests.read(secretFiles).get(secretName);
            if (secret != null) {
                return SecretConnection.settings(secretName, secret, endpoint);
            }
        }
        String url = env.get("BACKFILL_" + role + "_JDBC_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("no connection settings for the " + role.toLowerCase() + " Secret '" + secretName
                    + "': pass --secrets FILE with that Secret, or set BACKFILL_" + role + "_JDBC_URL (and _USER, _PASSWORD)");
        }
        return new ConnectionSettings(url, env.get("BACKFILL_" + role + "_USER"), env.get("BACKFILL_" + role + "_PASSWORD"), endpoint);
    }

    /** The environment a lane process or pod receives: the role-based variables, never command-line arguments. */
    public static void export(String role, ConnectionSettings s, Map<String, String> env) {
        env.put("BACKFILL_" + role + "_JDBC_URL", s.jdbcUrl());
        if (s.user() != null) {
            env.put("BACKFILL_" + role + "_USER", s.user());
        }
        if (s.password() != null) {
            env.put("BACKFILL_" + role + "_PASSWORD", s.password());
        }
    }
}

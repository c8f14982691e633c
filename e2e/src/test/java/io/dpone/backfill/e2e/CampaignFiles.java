package io.dpone.backfill.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A campaign file and the Secret manifests beside it, as a user keeps them, and the CLI run over them: what the
 * PostgreSQL and the SQL Server fixtures share.
 */
record CampaignFiles(Path dir, Path campaignFile, Path secretsFile) {
    /**
     * Writes the two connection Secrets a campaign names ({@code src-db}, {@code tgt-db}); the target's user and
     * password are left out when null.
     */
    static Path writeSecrets(Path dir, String sourceUrl, String targetUrl, String targetUser, String targetPassword)
            throws IOException {
        String credentials = targetUser == null ? "" : """
                  user: "%s"
                  password: "%s"
                """.formatted(targetUser, targetPassword);
        return Files.writeString(dir.resolve("secrets.yaml"), """
                apiVersion: v1
                kind: Secret
                metadata: {name: src-db}
                stringData:
                  jdbcUrl: "%s"
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: tgt-db}
                stringData:
                  jdbcUrl: "%s"
                """.formatted(sourceUrl, targetUrl) + credentials);
    }

    /** {@code command campaign.yaml --secrets secrets.yaml extra...}. */
    String[] withCampaign(String command, String... extra) {
        String[] base = {command, campaignFile.toString(), "--secrets", secretsFile.toString()};
        String[] all = new String[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }

    /** {@code run} or {@code resume} with the lanes' logs under this directory. */
    String[] runArgs(String command) {
        return withCampaign(command, "--log-dir", dir.resolve("lanes").toString());
    }

    /** Runs the packaged CLI as a user would, in this directory, and returns its output. */
    String cli(Map<String, String> env, Duration timeout, int expectedExit, String... args) throws Exception {
        try (LaunchedProcess p = LaunchedProcess.start(dir, env, args)) {
            int code = p.awaitExit(timeout);
            assertThat(code).as(String.join(" ", args) + "\n" + p.output()).isEqualTo(expectedExit);
            return p.output();
        }
    }
}

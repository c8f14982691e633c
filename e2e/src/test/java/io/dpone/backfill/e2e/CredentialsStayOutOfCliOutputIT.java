package io.dpone.backfill.e2e;

import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 39, item 2, as a user meets it: each way a connection can fail, with a distinctive password, through the
 * packaged CLI's {@code doctor} and {@code run}; neither stdout (the evidence JSON included), stderr nor a lane log
 * holds the password in any form. Each failure is also checked to have happened, with the driver's or the reader's
 * own words, so no case passes by failing somewhere harmless.
 *
 * <p>What the drivers do with these URLs is in PostgresConnectionErrorsTest and MssqlConnectionErrorsTest (pgjdbc
 * 42.7.10 {@code Driver.parseURL}, mssql-jdbc 13.2.1 {@code Util.parseUrl}); SnakeYAML quotes the line it could not
 * parse.
 */
class CredentialsStayOutOfCliOutputIT {
    /** Not valid URL encoding on purpose: pgjdbc then quotes the whole URL. */
    static final String PASSWORD = "S3cr3t-Pa55-XYZ%zz";
    static final String ENCODED = "S3cr3t-Pa55-XYZ%25zz";
    /** In every form the password takes (as written, URL-encoded; it has no URL-decoded form) and any part of it. */
    static final String CORE = "S3cr3t-Pa55-XYZ";

    private static PostgresDatabase source;
    private static PostgresDatabase target;
    private static PostgresDatabase guarded;
    private static String guardedLogin;

    @TempDir
    Path dir;

    @BeforeAll
    static void databases() throws Exception {
        source = PostgresDatabase.fresh("leaksrc");
        target = PostgresDatabase.fresh("leaktgt");
        guarded = PostgresDatabase.fresh("leakpw");
        ItemsTable.createWithRows(source, 10);
        ItemsTable.createWithOldRow(target);
        guardedLogin = "leak_login_" + guarded.name().substring(guarded.name().lastIndexOf('_') + 1);
        guarded.requirePassword(guardedLogin, "the-right-one");
    }

    /** One way to fail: the source Secret's keys (or the environment, or a broken file), and what the failure says. */
    enum Failure {
        UNPARSEABLE_URL("Unable to parse URL"),
        BAD_PORT("Unable to parse URL"),
        PASSWORD_IN_AUTHORITY("Unable to parse URL"),
        WRONG_PASSWORD("password authentication failed"),
        UNREACHABLE_HOST("refused"),
        /** The password's line, the 6th of the file. */
        MALFORMED_SECRETS_FILE("line 6"),
        ENVIRONMENT_URL_FOR_ANOTHER_DRIVER("needs a JDBC URL starting with jdbc:postgresql:"),
        SQL_SERVER_PORT_FROM_AUTHORITY("port number");

        final String saying;

        Failure(String saying) {
            this.saying = saying;
        }
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void doctorPrintsNoPasswordWhateverTheFailure(Failure failure) throws Exception {
        assertNoPasswordAnywhere(failure, "doctor");
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void runPrintsNoPasswordWhateverTheFailure(Failure failure) throws Exception {
        assertNoPasswordAnywhere(failure, "run", "--log-dir", dir.resolve("lanes").toString());
    }

    /** The scrubber masks credentials, not the names of the files that hold them: usage still says what to pass. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"run", "resume", "doctor", "status", "reconcile", "plan", "generate"})
    void theHelpOfACommandThatReadsSecretsStillNamesTheFileToPass(String command, @TempDir Path dir) throws Exception {
        BackfillProcess.Result help = BackfillProcess.run(dir, command, "--help");

        assertThat(help.exitCode()).as(help.stderr()).isZero();
        assertThat(help.stdout()).contains("--secrets=FILE").doesNotContain(io.dpone.backfill.redaction.CredentialScrubber.MASK);
    }

    private void assertNoPasswordAnywhere(Failure failure, String command, String... more) throws Exception {
        Map<String, String> env = new HashMap<>();
        // A connection that never opens is not retried for minutes before `run` gives up.
        env.put("BACKFILL_RECONNECT_BUDGET_SECONDS", "5");
        Path campaign = Files.writeString(dir.resolve("campaign.yaml"), campaignYaml(failure));
        String[] args = Stream.concat(Stream.of(command, campaign.toString()), Stream.of(more)).toArray(String[]::new);
        if (failure == Failure.ENVIRONMENT_URL_FOR_ANOTHER_DRIVER) {
            env.put("BACKFILL_SOURCE_JDBC_URL", "jdbc:postgres://loader:" + PASSWORD + "@127.0.0.1/app?password=" + ENCODED);
            env.put("BACKFILL_SOURCE_PASSWORD", PASSWORD);
            env.put("BACKFILL_TARGET_JDBC_URL", target.jdbcUrl());
        } else {
            Path secrets = Files.writeString(dir.resolve("secrets.yaml"), secrets(failure));
            args = Stream.concat(Stream.of(args), Stream.of("--secrets", secrets.toString())).toArray(String[]::new);
        }

        BackfillProcess.Result result = BackfillProcess.run(dir, env, Duration.ofMinutes(2), args);

        String label = failure + " through " + command;
        assertThat(result.exitCode()).as(label + "\n" + result.stdout() + result.stderr()).isNotZero();
        assertThat(result.stdout() + result.stderr()).as(label + ": the failure happened where it should").contains(failure.saying);
        assertThat(result.stdout()).as(label + ": stdout (with the evidence JSON)").doesNotContain(CORE);
        assertThat(result.stderr()).as(label + ": stderr").doesNotContain(CORE);
        for (Path log : laneLogs()) {
            assertThat(Files.readString(log)).as(label + ": " + log).doesNotContain(CORE);
        }
    }

    private List<Path> laneLogs() throws IOException {
        Path lanes = dir.resolve("lanes");
        if (!Files.isDirectory(lanes)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(lanes)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    private static String campaignYaml(Failure failure) {
        String yaml = CampaignYaml.campaign("leak_" + failure.name().toLowerCase()).chunk(CampaignYaml.uuidChunks(2)).render();
        return failure == Failure.SQL_SERVER_PORT_FROM_AUTHORITY
                ? yaml.replace("target: {type: postgres, connectionSecretRef: {name: tgt-db}, table: items}",
                "target: {type: mssql, connectionSecretRef: {name: tgt-db}, schema: dbo, table: items}")
                : yaml;
    }

    private static String secrets(Failure failure) {
        String sourceKeys = switch (failure) {
            case UNPARSEABLE_URL -> keys("jdbc:postgresql://127.0.0.1:1/app?user=loader&password=" + PASSWORD, null);
            case BAD_PORT -> keys("jdbc:postgresql://127.0.0.1:notaport/app?user=loader&password=" + ENCODED, PASSWORD);
            case PASSWORD_IN_AUTHORITY -> keys("jdbc:postgresql://loader:" + ENCODED + "@127.0.0.1/app", null);
            case WRONG_PASSWORD -> keys(guarded.jdbcUrl().replace("?user=postgres", ""), PASSWORD)
                    .replace("user: loader", "user: " + guardedLogin);
            case UNREACHABLE_HOST -> keys("jdbc:postgresql://127.0.0.1:1/app?user=loader&password=" + ENCODED
                    + "&sslpassword=" + ENCODED, PASSWORD);
            case MALFORMED_SECRETS_FILE -> "  user: loader\n  password: \"" + PASSWORD + "\n";
            case SQL_SERVER_PORT_FROM_AUTHORITY, ENVIRONMENT_URL_FOR_ANOTHER_DRIVER -> keys(source.jdbcUrl(), null);
        };
        String targetUrl = failure == Failure.SQL_SERVER_PORT_FROM_AUTHORITY
                ? "jdbc:sqlserver://sa:" + PASSWORD + "@127.0.0.1:1433;databaseName=app;password=" + PASSWORD
                : target.jdbcUrl();
        return """
                apiVersion: v1
                kind: Secret
                metadata: {name: src-db}
                stringData:
                %s---
                apiVersion: v1
                kind: Secret
                metadata: {name: tgt-db}
                stringData:
                  jdbcUrl: "%s"
                """.formatted(sourceKeys, targetUrl);
    }

    private static String keys(String jdbcUrl, String password) {
        return "  jdbcUrl: \"" + jdbcUrl + "\"\n  user: loader\n" + (password == null ? "" : "  password: \"" + password + "\"\n");
    }
}

package io.dpone.backfill.e2e;

import io.dpone.backfill.testsupport.RepositoryRoot;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import io.dpone.backfill.testsupport.schema.ShopSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 40: the README's first campaign, walked exactly as written. The two files and the six commands are copied
 * from the README's fenced blocks ({@code yaml secrets.yaml}, {@code yaml campaign.yaml}, {@code sh first-campaign});
 * only the connection URLs are pointed at two embedded PostgreSQL databases, where the README's roles exist with the
 * README's passwords and the privileges the runbook asks for. Each command must exit 0, and the published table must
 * equal the source: if the README and the CLI drift apart, this fails.
 */
class ReadmeFirstCampaignIT {
    private static final Path README = RepositoryRoot.resolve("README.md");
    private static final Pattern FENCE = Pattern.compile("(?ms)^```(\\S+) ([\\w.-]+)\\n(.*?)^```$");

    @TempDir
    Path dir;

    @Test
    void theReadmesFirstCampaignRunsAsWrittenToAVerifiedPublication() throws Exception {
        String readme = Files.readString(README);
        String secrets = block(readme, "secrets.yaml");
        String campaign = block(readme, "campaign.yaml");
        List<String[]> commands = commands(block(readme, "first-campaign"));
        assertThat(commands).extracting(c -> c[0]).containsExactly("plan", "doctor", "run", "status", "verify", "reconcile");

        PostgresDatabase source = PostgresDatabase.fresh("readme_src");
        PostgresDatabase target = PostgresDatabase.fresh("readme_tgt");
        source.execute("CREATE TABLE public.orders (id bigint PRIMARY KEY, customer text NOT NULL, amount numeric(12,2),"
                        + " placed_at timestamptz NOT NULL)",
                "INSERT INTO public.orders SELECT i, 'customer ' || (i % 97), round((i * 1.37) % 1000, 2),"
                        + " timestamptz '2025-01-01 00:00:00+00' + i * interval '1 minute' FROM generate_series(1, 20000) i",
                "ANALYZE public.orders");
        target.execute("CREATE TABLE public.orders (id bigint PRIMARY KEY, customer text NOT NULL, amount numeric(12,2),"
                + " placed_at timestamptz NOT NULL)");
        String reader = value(secrets, 0, "user");
        String writer = value(secrets, 1, "user");
        role(source, reader, value(secrets, 0, "password"));
        role(target, writer, value(secrets, 1, "password"));
        source.execute("GRANT SELECT ON public.orders TO " + reader);
        target.execute("ALTER TABLE public.orders OWNER TO " + writer, "GRANT CREATE ON DATABASE "
                + target + " TO " + writer, "GRANT CREATE ON SCHEMA public TO " + writer);

        Files.writeString(dir.resolve("secrets.yaml"), secrets
                .replace(value(secrets, 0, "jdbcUrl"), withoutUser(source.jdbcUrl()))
                .replace(value(secrets, 1, "jdbcUrl"), withoutUser(target.jdbcUrl())));
        Files.writeString(dir.resolve("campaign.yaml"), campaign);

        StringBuilder transcript = new StringBuilder();
        for (String[] command : commands) {
            try (LaunchedProcess p = LaunchedProcess.start(dir, Map.of(), command)) {
                int exit = p.awaitExit(Duration.ofSeconds(240));
                transcript.append("$ ./backfill ").append(String.join(" ", command)).append("  # exit ").append(exit)
                        .append('\n').append(p.output()).append('\n');
                assertThat(exit).as(transcript.toString()).isZero();
            }
        }
        System.out.println(transcript); // the closing note's evidence, in the surefire report's output
        assertThat(transcript).contains("HandoffCommitted");
        String rows = "SELECT concat_ws('|', id, customer, amount, placed_at) FROM public.orders ORDER BY id";
        assertThat(target.queryForStrings(rows)).isEqualTo(source.queryForStrings(rows));
    }

    /**
     * The README's whole-schema path ({@code sh first-schema}), run by bash as written with the README's
     * {@code secrets.yaml}: {@code generate}, two rounds of {@code run} over the files (exit 9 while a member waits for
     * its group), then {@code status}. The schema is the shop of the SQL Server suites (a foreign-key cycle, a
     * self-reference, a composite key and a composite key onto it), on two PostgreSQL databases.
     */
    @Test
    void theReadmesWholeSchemaRunsAsWrittenToEveryTablePublishedInOneGroup() throws Exception {
        String readme = Files.readString(README);
        String secrets = block(readme, "secrets.yaml");
        String script = block(readme, "first-schema");

        PostgresDatabase source = PostgresDatabase.fresh("readme_schema_src");
        PostgresDatabase target = PostgresDatabase.fresh("readme_schema_tgt");
        source.execute(ShopSchema.source(true));
        target.execute(Arrays.stream(ShopSchema.source(true)).filter(sql -> sql.startsWith("CREATE") || sql.startsWith("ALTER"))
                .toArray(String[]::new));
        String reader = value(secrets, 0, "user");
        String writer = value(secrets, 1, "user");
        role(source, reader, value(secrets, 0, "password"));
        role(target, writer, value(secrets, 1, "password"));
        source.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + reader);
        for (String table : ShopSchema.TABLES.keySet()) {
            target.execute("ALTER TABLE public." + table + " OWNER TO " + writer);
        }
        target.execute("GRANT CREATE ON DATABASE " + target + " TO " + writer, "GRANT CREATE ON SCHEMA public TO " + writer);
        Files.writeString(dir.resolve("secrets.yaml"), secrets
                .replace(value(secrets, 0, "jdbcUrl"), withoutUser(source.jdbcUrl()))
                .replace(value(secrets, 1, "jdbcUrl"), withoutUser(target.jdbcUrl())));
        // `./backfill` in the reader's folder is the repository's script, as a checkout's would be.
        Files.createSymbolicLink(dir.resolve("backfill"), RepositoryRoot.resolve("backfill"));

        ProcessBuilder bash = new ProcessBuilder("bash", "-c", script).directory(dir.toFile()).redirectErrorStream(true);
        bash.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
        Process p = bash.start();
        String transcript = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.MINUTES)).as(transcript).isTrue();
        System.out.println(transcript); // the closing note's evidence

        assertThat(p.exitValue()).as(transcript).isZero();
        assertThat(transcript).contains("6 table(s) paired").contains("publication group shop")
                .contains("exit code 9").contains("[HandoffCommitted]");
        try (var files = Files.list(dir.resolve("campaigns"))) {
            assertThat(files.filter(c -> c.toString().endsWith(".yaml"))).hasSize(6);
        }
        for (String table : ShopSchema.TABLES.keySet()) {
            String rows = "SELECT concat_ws('|', " + ShopSchema.TABLES.get(table)[0] + ") FROM public." + table + " ORDER BY 1";
            assertThat(target.queryForStrings(rows)).as(table).isEqualTo(source.queryForStrings(rows));
        }
        assertThat(target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt")).isEqualTo(6);
        assertThat(target.queryForLong("SELECT count(*) FROM backfill_state.handoff_receipt")).as("every member handed off")
                .isEqualTo(6);
    }

    /** The body of the README's fenced block whose info string ends with {@code name}. */
    private static String block(String readme, String name) {
        Matcher m = FENCE.matcher(readme);
        while (m.find()) {
            if (m.group(2).equals(name)) {
                return m.group(3);
            }
        }
        throw new AssertionError("the README has no fenced block named " + name);
    }

    /** Each {@code ./backfill ...} line, its arguments split as a shell would (no quoting in these lines), comment dropped. */
    private static List<String[]> commands(String block) {
        List<String[]> commands = new ArrayList<>();
        for (String line : block.lines().toList()) {
            String command = line.replaceFirst("\\s+#.*$", "").strip();
            assertThat(command).as("a command line of the README's first campaign").startsWith("./backfill ");
            commands.add(command.substring("./backfill ".length()).strip().split("\\s+"));
        }
        return commands;
    }

    /** The quoted value of {@code key} in the {@code index}-th Secret of the file. */
    private static String value(String secrets, int index, String key) {
        String document = secrets.split("(?m)^---$")[index];
        Matcher m = Pattern.compile("(?m)^\\s+" + key + ": \"([^\"]*)\"$").matcher(document);
        assertThat(m.find()).as(key + " in Secret " + index).isTrue();
        return m.group(1);
    }

    private static void role(PostgresDatabase database, String role, String password) throws Exception {
        if (database.queryForLong("SELECT count(*) FROM pg_roles WHERE rolname = '" + role + "'") == 0) {
            database.requirePassword(role, password);
        }
    }

    private static String withoutUser(String url) {
        return url.replaceAll("([?&])user=[^&]*&?", "$1").replaceAll("[?&]$", "");
    }
}

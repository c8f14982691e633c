package io.dpone.backfill.e2e;

import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import io.dpone.backfill.wiring.CampaignRuntime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One PostgreSQL-to-PostgreSQL campaign for the process-level suites: fresh source and target databases on the
 * shared embedded server, the campaign file and the Secret manifests a user would write, and short leases.
 */
final class CampaignFixture {
    static final EngineTimings TIMINGS = new EngineTimings(Duration.ofSeconds(3), Duration.ofMillis(500),
            Duration.ofSeconds(10), Duration.ofSeconds(3));

    final PostgresDatabase source;
    final PostgresDatabase target;
    final Path dir;
    final Path campaignFile;
    final Path secretsFile;
    final CampaignBlueprint blueprint;
    final CampaignFiles files;

    CampaignFixture(Path dir, String backfillId, int rows, int buckets, int lanes) throws Exception {
        this(dir, backfillId, rows, CampaignYaml.uuidChunks(buckets), lanes);
    }

    /** {@code chunk}: the campaign's {@code spec.chunk} as a YAML flow mapping. */
    CampaignFixture(Path dir, String backfillId, int rows, String chunk, int lanes) throws Exception {
        this(dir, backfillId, rows, chunk, lanes, PostgresDatabase.fresh("e2esrc"), PostgresDatabase.fresh("e2etgt"), null);
    }

    /**
     * On given databases; {@code targetUrl} is what the campaign's Secret names for the target (a proxy in front of
     * it, say), null for the target's own URL.
     */
    CampaignFixture(Path dir, String backfillId, int rows, String chunk, int lanes, PostgresDatabase source,
                    PostgresDatabase target, String targetUrl) throws Exception {
        this.source = source;
        this.target = target;
        this.dir = dir;
        ItemsTable.createWithRows(source, rows);
        ItemsTable.createWithOldRow(target);
        this.campaignFile = Files.writeString(dir.resolve("campaign.yaml"), CampaignYaml.campaign(backfillId)
                .chunk(chunk).parallelWorkers(lanes).shadowSwap().render());
        this.secretsFile = CampaignFiles.writeSecrets(dir, source.jdbcUrl(),
                targetUrl == null ? target.jdbcUrl() : targetUrl, null, null);
        this.files = new CampaignFiles(dir, campaignFile, secretsFile);
        this.blueprint = CampaignBlueprint.of(CampaignReader.read(campaignFile));
    }

    /** Environment for `backfill` processes: short leases so takeovers happen in seconds. */
    Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("BACKFILL_LEASE_TTL_SECONDS", "3");
        env.put("BACKFILL_LEASE_RENEW_SECONDS", "0.5");
        env.put("BACKFILL_DRAIN_SECONDS", "10");
        env.put("BACKFILL_LOCK_TIMEOUT_SECONDS", "3");
        return env;
    }

    /** Environment of a `backfill lane` process: connections only through the environment, like a pod. */
    Map<String, String> laneEnv(String fault) {
        Map<String, String> env = env();
        env.put("BACKFILL_SOURCE_JDBC_URL", source.jdbcUrl());
        env.put("BACKFILL_TARGET_JDBC_URL", target.jdbcUrl());
        if (fault != null) {
            env.put("BACKFILL_FAULT", fault);
        }
        return env;
    }

    String[] laneArgs(int lane) {
        return new String[]{"lane", "--run-key", blueprint.identity().runKey(), "--lane", Integer.toString(lane),
                "--state-schema", "backfill_state", "--target-type", "postgres"};
    }

    /** Takes the campaign from nothing to Loading in this JVM, then lets go of the lease for the next driver. */
    void prepareToLoading() throws Exception {
        try (CampaignRuntime s = CampaignRuntime.open(blueprint, app -> source.connect(), app -> target.connect(), TIMINGS, "e2e-prep")) {
            CampaignPreparation.toLoading(s, blueprint, TIMINGS);
        }
    }

    /** Starts `backfill run` with {@code env} and SIGKILLs it once {@code chunks} chunks are committed, lanes loading. */
    void killRunOnceCommitted(Map<String, String> env, int chunks) throws Exception {
        LaunchedProcess.killOnceCommitted(dir, env, runArgs("run"), this::committedChunks, chunks);
    }

    /** Committed chunks, 0 while the driver has not created the ledger yet. */
    long committedChunks() {
        try {
            return target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'");
        } catch (SQLException notYet) {
            return 0;
        }
    }

    /** The published table must equal the source exactly, values included, with one publication receipt. */
    void assertPublishedExactlyTheSource() throws SQLException {
        List<String> expected = ItemsTable.rows(source);
        List<String> published = ItemsTable.rows(target);
        if (!expected.equals(published)) {
            throw new AssertionError("published table differs from the source: " + published.size() + " rows vs " + expected.size());
        }
        if (target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt") != 1) {
            throw new AssertionError("expected exactly one publication receipt");
        }
    }

    /** Every row of {@code public.items}, key order, as one text each: what reconciliation tests compare side by side. */
    static final String ITEMS_ROWS = "SELECT concat_ws('|', id, qty, note) FROM public.items ORDER BY id";

    /** Updates, deletes and inserts spread over every chunk of the source. */
    void writeTheSource() throws SQLException {
        source.execute("UPDATE public.items SET qty = qty + 1000, note = 'updated' WHERE qty % 7 = 0",
                "DELETE FROM public.items WHERE qty % 11 = 0",
                "INSERT INTO public.items SELECT gen_random_uuid(), 100000 + i, 'inserted ' || i FROM generate_series(1, 120) i");
    }

    /** Runs the packaged CLI as a user would, in this fixture's directory, and returns its output. */
    String cli(int expectedExit, String... args) throws Exception {
        return files.cli(env(), Duration.ofSeconds(120), expectedExit, args);
    }

    String[] runArgs(String command) {
        return files.runArgs(command);
    }

    static void deleteQuietly(Path p) throws IOException {
        Files.deleteIfExists(p);
    }
}

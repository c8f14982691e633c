package io.dpone.backfill.e2e;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.pgembedded.EmbeddedPostgres;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import io.dpone.backfill.wiring.CampaignSession;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
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

    final EmbeddedPostgres pg = SharedEmbeddedPostgres.get();
    final String sourceDb = SharedEmbeddedPostgres.freshDatabase("e2esrc");
    final String targetDb = SharedEmbeddedPostgres.freshDatabase("e2etgt");
    final Path dir;
    final Path campaignFile;
    final Path secretsFile;
    final CampaignBlueprint blueprint;

    CampaignFixture(Path dir, String backfillId, int rows, int buckets, int lanes) throws Exception {
        this.dir = dir;
        exec(sourceDb, "CREATE TABLE public.items (id uuid NOT NULL PRIMARY KEY, qty integer NOT NULL, note text)",
                "INSERT INTO public.items SELECT gen_random_uuid(), i, 'row ' || i FROM generate_series(1, " + rows + ") i");
        exec(targetDb, "CREATE TABLE public.items (id uuid NOT NULL PRIMARY KEY, qty integer NOT NULL, note text)",
                "INSERT INTO public.items VALUES ('00000000-0000-0000-0000-000000000001', -1, 'the old table')");
        this.campaignFile = Files.writeString(dir.resolve("campaign.yaml"), """
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata: {name: items}
                spec:
                  backfillId: %s
                  source: {connectionSecretRef: {name: src-db}, table: items}
                  target: {type: postgres, connectionSecretRef: {name: tgt-db}, table: items}
                  uniqueKey: [id]
                  chunk: {column: id, kind: uuid, buckets: %d}
                  parallelWorkers: %d
                  publication: {mode: shadow_swap}
                """.formatted(backfillId, buckets, lanes));
        this.secretsFile = Files.writeString(dir.resolve("secrets.yaml"), """
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
                """.formatted(pg.jdbcUrl(sourceDb), pg.jdbcUrl(targetDb)));
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
        env.put("BACKFILL_SOURCE_JDBC_URL", pg.jdbcUrl(sourceDb));
        env.put("BACKFILL_TARGET_JDBC_URL", pg.jdbcUrl(targetDb));
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
        try (CampaignSession s = CampaignSession.open(blueprint, app -> pg.connect(sourceDb), app -> pg.connect(targetDb), TIMINGS, "e2e-prep")) {
            s.engine().open(s.preflight(blueprint, null));
            CampaignLease lease = s.ledger().acquireLease(blueprint.identity().runKey(), "e2e-prep", TIMINGS.leaseTtl()).orElseThrow();
            for (int i = 0; s.engine().step(lease).phase() != CampaignPhase.Loading; i++) {
                if (i == 20) {
                    throw new AssertionError("campaign did not reach Loading");
                }
            }
            s.ledger().releaseLease(lease);
        }
    }

    void exec(String db, String... sql) throws SQLException {
        pg.execute(db, sql);
    }

    long target(String sql) throws SQLException {
        return pg.queryForLong(targetDb, sql);
    }

    /** (id, qty, note) of every row, sorted: the published table must equal the source exactly, values included. */
    List<String> rows(boolean target, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = pg.connect(target ? targetDb : sourceDb); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id::text || '|' || qty || '|' || note FROM " + table + " ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    void assertPublishedExactlyTheSource() throws SQLException {
        List<String> source = rows(false, "public.items");
        List<String> published = rows(true, "public.items");
        if (!source.equals(published)) {
            throw new AssertionError("published table differs from the source: " + published.size() + " rows vs " + source.size());
        }
        if (target("SELECT count(*) FROM backfill_state.publication_receipt") != 1) {
            throw new AssertionError("expected exactly one publication receipt");
        }
    }

    /** Runs the packaged CLI as a user would, in this fixture's directory, and returns its output. */
    String cli(int expectedExit, String... args) throws Exception {
        try (LaunchedProcess p = LaunchedProcess.start(dir, env(), args)) {
            int code = p.awaitExit(Duration.ofSeconds(120));
            org.assertj.core.api.Assertions.assertThat(code).as(String.join(" ", args) + "\n" + p.output()).isEqualTo(expectedExit);
            return p.output();
        }
    }

    String[] runArgs(String command) {
        return new String[]{command, campaignFile.toString(), "--secrets", secretsFile.toString(), "--log-dir", dir.resolve("lanes").toString()};
    }

    static void deleteQuietly(Path p) throws IOException {
        Files.deleteIfExists(p);
    }
}

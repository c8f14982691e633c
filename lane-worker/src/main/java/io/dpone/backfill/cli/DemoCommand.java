package io.dpone.backfill.cli;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.pgembedded.EmbeddedPostgres;
import io.dpone.backfill.postgres.PostgresEndpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.concurrent.Callable;

/**
 * {@code backfill demo}: the whole product on embedded defaults. Starts a real PostgreSQL 17, creates a sample source
 * with realistic types and a reviewed target, runs a 4-lane shadow_swap campaign to the XMin handoff with lanes as
 * child processes, prints the evidence and checks the published table against the source.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run a complete shadow_swap campaign on an embedded PostgreSQL (source and target databases) and print the evidence.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--rows", defaultValue = "1000000", description = "Source rows to generate (default ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--lanes", defaultValue = "4", description = "Parallel lanes (default ${DEFAULT-VALUE}).")
    int lanes;

    @Option(names = "--buckets", defaultValue = "64", description = "Chunks (default ${DEFAULT-VALUE}).")
    int buckets;

    @Override
    public Integer call() throws Exception {
        long started = System.nanoTime();
        try (EmbeddedPostgres pg = EmbeddedPostgres.start()) {
            log("embedded PostgreSQL 17 on 127.0.0.1:" + pg.port());
            pg.createDatabase("demo_source");
            pg.createDatabase("demo_target");
            try (Connection source = pg.connect("demo_source"); Connection target = pg.connect("demo_target")) {
                long t = System.nanoTime();
                DemoData.createSource(source, rows);
                log(String.format("source public.orders: %,d rows generated in %.1f s", rows, (System.nanoTime() - t) / 1e9));
                DemoData.createReviewedTarget(target);
            }
            String campaign = DemoData.campaignYaml(lanes, buckets);
            Path file = Files.createTempFile("backfill-demo", ".yaml");
            try {
                Files.writeString(file, campaign);
                CampaignBlueprint blueprint = CampaignBlueprint.of(CampaignReader.read(file));
                log("campaign: " + PlanReport.summaryLine(blueprint));
                int code = DriverRun.execute(blueprint, new ConnectionSettings(pg.jdbcUrl("demo_source"), null, null, PostgresEndpoint.INSTANCE),
                        new ConnectionSettings(pg.jdbcUrl("demo_target"), null, null, PostgresEndpoint.INSTANCE), null, false, null);
                if (code != BackfillCli.EXIT_OK) {
                    log("the campaign did not reach its handoff (exit " + code + ")");
                    return code;
                }
                verify(pg);
            } finally {
                Files.deleteIfExists(file);
            }
        }
        log(String.format("demo finished in %.1f s", (System.nanoTime() - started) / 1e9));
        return BackfillCli.EXIT_OK;
    }

    /** Independent of the ledger: the published table holds exactly the source's keys, each once. */
    private void verify(EmbeddedPostgres pg) throws Exception {
        long sourceRows = pg.queryForLong("demo_source", "SELECT count(*) FROM public.orders");
        long liveRows = pg.queryForLong("demo_target", "SELECT count(*) FROM public.orders");
        long distinct = pg.queryForLong("demo_target", "SELECT count(DISTINCT id) FROM public.orders");
        String digest = "SELECT md5(string_agg(id::text || amount::text, ',' ORDER BY id)) FROM public.orders";
        boolean same = String.valueOf(pg.queryForString("demo_source", digest)).equals(pg.queryForString("demo_target", digest));
        log(String.format("verified: source %,d rows, published %,d rows, %,d distinct keys, key+amount digest %s",
                sourceRows, liveRows, distinct, same ? "equal" : "DIFFERENT"));
        if (sourceRows != liveRows || distinct != liveRows || !same) {
            throw new IllegalStateException("the published table does not match the source");
        }
    }

    private static void log(String line) {
        System.err.println("demo: " + line);
    }
}

package io.dpone.backfill.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.cli.local.LaneCommandLine;
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
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code backfill bench}: measures the shadow_swap campaign against the per-chunk merge it replaces, on the same
 * generated data, chunk plan and number of workers, on an embedded PostgreSQL. Lanes run with a small fixed heap
 * to show that chunks are streamed, never held in memory. Prints one JSON report.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmark a shadow_swap campaign against a per-chunk MERGE baseline on an embedded PostgreSQL.",
                "Lanes run with -Xmx${LANE_HEAP}; the report gives wall times, rows/s, p95 chunk seconds and the speed-up."})
final class BenchCommand implements Callable<Integer> {
    static final String LANE_HEAP = "32m";

    @Option(names = "--rows", defaultValue = "1000000", description = "Source rows (default ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--lanes", defaultValue = "4", description = "Lanes and baseline workers (default ${DEFAULT-VALUE}).")
    int lanes;

    @Option(names = "--buckets", defaultValue = "4", description = "Chunks (default ${DEFAULT-VALUE}): few, large chunks, each larger than a lane's heap, prove streaming.")
    int buckets;

    @Option(names = "--skip-baseline", description = "Only measure the campaign.")
    boolean skipBaseline;

    @Override
    public Integer call() throws Exception {
        ObjectNode report = PrettyJson.object();
        report.put("rows", rows).put("chunks", buckets).put("lanes", lanes).put("laneHeap", "-Xmx" + LANE_HEAP)
                .put("cores", Runtime.getRuntime().availableProcessors());
        try (EmbeddedPostgres pg = EmbeddedPostgres.start()) {
            for (String db : List.of("bench_source", "bench_target", "bench_merge")) {
                pg.createDatabase(db);
            }
            try (Connection source = pg.connect("bench_source"); Connection target = pg.connect("bench_target");
                 Connection merge = pg.connect("bench_merge")) {
                DemoData.createSource(source, rows);
                DemoData.createReviewedTarget(target);
                DemoData.createReviewedTarget(merge);
            }
            // Chunk index from the key's top 32 bits (exact but for keys within 2^96 of a boundary): an estimate of
            // the largest chunk's COPY text, which a lane with a small heap could never hold whole.
            report.put("largestChunkTextBytes", pg.queryForLong("bench_source", "SELECT max(s) FROM (SELECT"
                    + " (('x' || substr(replace(id::text, '-', ''), 1, 8))::bit(32)::bigint * " + buckets + ") >> 32 AS chunk,"
                    + " sum(octet_length(o::text)) AS s FROM public.orders o GROUP BY 1) t"));
            Path file = Files.createTempFile("backfill-bench", ".yaml");
            try {
                Files.writeString(file, DemoData.campaignYaml(lanes, buckets).replace("demo_orders_v1", "bench_orders_v1"));
                CampaignBlueprint blueprint = CampaignBlueprint.of(CampaignReader.read(file));
                campaign(pg, blueprint, report.putObject("shadowSwap"));
                if (!skipBaseline) {
                    baseline(pg, blueprint, report.putObject("mergeBaseline"));
                    double ratio = report.path("mergeBaseline").path("seconds").asDouble() / report.path("shadowSwap").path("seconds").asDouble();
                    report.put("speedupVsMerge", Math.round(ratio * 100) / 100.0);
                }
            } finally {
                Files.deleteIfExists(file);
            }
        }
        System.out.println(PrettyJson.write(report));
        return BackfillCli.EXIT_OK;
    }

    private void campaign(EmbeddedPostgres pg, CampaignBlueprint blueprint, ObjectNode out) throws Exception {
        System.setProperty(LaneCommandLine.JAVA_OPTS_PROPERTY, "-Xmx" + LANE_HEAP);
        long started = System.nanoTime();
        int code = DriverRun.execute(blueprint, new ConnectionSettings(pg.jdbcUrl("bench_source"), null, null, PostgresEndpoint.INSTANCE),
                new ConnectionSettings(pg.jdbcUrl("bench_target"), null, null, PostgresEndpoint.INSTANCE), null, false, null, false);
        double seconds = (System.nanoTime() - started) / 1e9;
        if (code != BackfillCli.EXIT_OK) {
            throw new IllegalStateException("the benchmark campaign did not reach its handoff (exit " + code + ")");
        }
        double loading = Double.parseDouble(pg.queryForString("bench_target",
                "SELECT extract(epoch FROM max(finished_at) - min(started_at)) FROM backfill_state.chunk"));
        double p95 = Double.parseDouble(pg.queryForString("bench_target", "SELECT percentile_cont(0.95) WITHIN GROUP"
                + " (ORDER BY extract(epoch FROM finished_at - started_at)) FROM backfill_state.chunk"));
        out.put("seconds", round(seconds)).put("loadingSeconds", round(loading))
                .put("rowsPerSecond", Math.round(rows / seconds)).put("loadingRowsPerSecond", Math.round(rows / loading))
                .put("p95ChunkSeconds", round(p95))
                .put("publishedRows", pg.queryForLong("bench_target", "SELECT count(*) FROM public.orders"));
    }

    private void baseline(EmbeddedPostgres pg, CampaignBlueprint blueprint, ObjectNode out) throws Exception {
        List<String> columns = List.of("id", "customer_id", "amount", "currency", "note", "created_at", "active",
                "discount", "attributes", "payload");
        Supplier<Connection> source = () -> connect(pg, "bench_source");
        Supplier<Connection> target = () -> connect(pg, "bench_merge");
        double seconds = MergeBaseline.run(blueprint.plan(), lanes, source, target, columns, "id");
        out.put("seconds", round(seconds)).put("rowsPerSecond", Math.round(rows / seconds))
                .put("liveRows", pg.queryForLong("bench_merge", "SELECT count(*) FROM public.orders"));
    }

    private static Connection connect(EmbeddedPostgres pg, String db) {
        try {
            return pg.connect(db);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}

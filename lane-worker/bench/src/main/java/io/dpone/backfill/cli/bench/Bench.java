package io.dpone.backfill.cli.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.cli.local.LaneClassArchive;
import io.dpone.backfill.cli.local.LaneCommandLine;
import io.dpone.backfill.cli.local.LaneJvmDefaults;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.source.SourceReadCost;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * `backfill bench` itself: generates the table once on an embedded PostgreSQL source, then runs the arms asked for,
 * interleaved (B0 B1 B2 S, B0 B1 B2 S, ...) so drift of the machine spreads over every arm, each on a fresh place of
 * the target, and reduces them to a {@link BenchReport}.
 */
public final class Bench {
    /** What the user asked for, already checked. */
    /** {@code rowsPerSecondCap}: the campaign arm's {@code spec.throttle.rowsPerSecond}, 0 for none (issue 28). */
    public record Settings(long rows, int lanes, int chunks, ChunkKind kind, int repeat, List<String> arms,
                           String laneHeap, ConnectionSettings sqlServer, String scratchSchema, String publicationVerify,
                           long rowsPerSecondCap) {
    }

    private static final Map<String, BenchArm> ARMS = new LinkedHashMap<>();

    static {
        for (BenchArm arm : List.of(new RawPipeArm(), new ChunkedPipeArm(), new StagedUpsertArm(), new CampaignArm(), new ReconcileArm())) {
            ARMS.put(arm.code(), arm);
        }
    }

    private final Settings settings;
    private final CampaignRunner campaigns;
    private final PassRunner passes;
    private final Consumer<String> log;
    /** The lanes' JVM options: the bench's heap cap, then the user's (as they follow the lanes' defaults in a campaign). */
    private final String laneOptions;

    public Bench(Settings settings, CampaignRunner campaigns, PassRunner passes, Consumer<String> log) {
        this.settings = settings;
        this.campaigns = campaigns;
        this.passes = passes;
        this.log = log;
        this.laneOptions = ("-Xmx" + settings.laneHeap() + " " + Objects.toString(LaneCommandLine.userOptions(), "")).trim();
    }

    public static List<String> armCodes() {
        return List.copyOf(ARMS.keySet());
    }

    public Result run() throws Exception {
        BenchTable table = new BenchTable(settings.kind());
        Path heapDir = Files.createTempDirectory("backfill-bench-heap");
        String previousOpts = System.getProperty(LaneCommandLine.JAVA_OPTS_PROPERTY);
        LaneHeapReports heaps = new LaneHeapReports(heapDir);
        System.setProperty(LaneCommandLine.JAVA_OPTS_PROPERTY, laneOptions + " " + heaps.laneOption());
        // S's figures depend on it: the run that makes the archive starts its later lanes without one.
        String classArchive = LaneClassArchive.describe(LaneCommandLine.userOptions(), System.getenv());
        // The target first: a SQL Server that is unreachable, or whose scratch schema exists, stops the bench at once.
        try (BenchTarget target = settings.sqlServer() == null ? new PostgresBenchTarget(table)
                : new SqlServerBenchTarget(settings.sqlServer(), table, settings.scratchSchema());
             BenchSource source = new BenchSource(table)) {
            log.accept("target: " + target.describe());
            long t = System.nanoTime();
            source.generate(settings.rows());
            log.accept(String.format("source public.orders: %,d rows, %,d pages, generated in %.1f s", settings.rows(),
                    source.tablePages(), (System.nanoTime() - t) / 1e9));
            BenchCampaign campaign = new BenchCampaign(table, target.type(), settings.rows(), settings.chunks(), settings.lanes(),
                    settings.publicationVerify(), settings.rowsPerSecondCap());
            var heap = source.heapExtent();
            SourceReads reads = new SourceReads(campaign.plan(heap), heap, source.anchor());
            SourceReadCost predicted = source.predictedReads(reads.plan());
            log.accept("predicted source reads of the chunked arms: " + predicted.describe());
            ArmContext context = new ArmContext(source, table, settings.rows(), settings.lanes(), campaign, reads, campaigns, passes, heaps);
            Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
            for (int r = 1; r <= settings.repeat(); r++) {
                for (String code : settings.arms()) {
                    BenchArm arm = ARMS.get(code);
                    try (ArmPlace place = target.place("r" + r + "_" + code.toLowerCase())) {
                        ArmRun run = arm.run(context, place, r);
                        if (run.rows() != settings.rows()) {
                            throw new IllegalStateException(code + " left " + run.rows() + " rows in the target, not " + settings.rows());
                        }
                        log.accept(String.format("%s run %d: %.2f s, %,d rows/s", code, r, run.seconds(), Math.round(run.rowsPerSecond())));
                        runs.computeIfAbsent(code, k -> new ArrayList<>()).add(run);
                    }
                }
            }
            List<ArmSummary> summaries = new ArrayList<>();
            runs.forEach((code, list) -> summaries.add(ArmSummary.of(ARMS.get(code), list)));
            return new Result(new BenchReport(setup(source, target, classArchive), source.tablePages(), summaries, predicted));
        } finally {
            if (previousOpts == null) {
                System.clearProperty(LaneCommandLine.JAVA_OPTS_PROPERTY);
            } else {
                System.setProperty(LaneCommandLine.JAVA_OPTS_PROPERTY, previousOpts);
            }
            try (var files = Files.list(heapDir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(heapDir);
        }
    }

    private ObjectNode setup(BenchSource source, BenchTarget target, String classArchive) throws Exception {
        ObjectNode setup = JsonNodeFactory.instance.objectNode();
        setup.put("rows", settings.rows()).put("chunks", settings.chunks()).put("kind", settings.kind().wireName())
                .put("lanes", settings.lanes()).put("publicationVerify", settings.publicationVerify()).put("repeat", settings.repeat()).put("laneHeap", "-Xmx" + settings.laneHeap())
                .put("laneJavaOptions", (String.join(" ", LaneJvmDefaults.of(target.type())) + " " + laneOptions).trim())
                .put("laneClassArchive", classArchive)
                .put("cores", Runtime.getRuntime().availableProcessors()).put("source", "embedded PostgreSQL 17")
                .put("target", target.describe()).put("tablePages", source.tablePages()).put("tableBytes", source.tableBytes());
        if (settings.sqlServer() != null) {
            setup.put("scratchSchema", settings.scratchSchema());
        }
        if (settings.rowsPerSecondCap() > 0) {
            setup.put("rowsPerSecondCap", settings.rowsPerSecondCap());
        }
        return setup;
    }

    /** The report, as JSON, as a table, or as an HTML page. */
    public record Result(BenchReport report) {
        public String json() {
            return report.jsonText();
        }

        public String table() {
            return report.table();
        }

        public String html() {
            return BenchChart.html(report);
        }
    }
}

package io.dpone.backfill.cli;

import io.dpone.backfill.cli.bench.Bench;
import io.dpone.backfill.cli.run.DriverRun;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.ChunkSpec;
import io.dpone.backfill.lane.ExitCodes;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code backfill bench}: the campaign measured side by side with the physical floor and with the load it replaces,
 * on the same generated table, chunk plan and workers (see the runbook, "Reading a bench report").
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure a shadow_swap campaign (S) against a raw binary COPY pipe in one stream (B0, the floor),"
                + " the same pipe per chunk (B1) and per-chunk staging plus upsert into the live table (B2), on one generated"
                + " 20-column table of an embedded PostgreSQL source. The target is a second embedded PostgreSQL, or the SQL"
                + " Server of --target-url (BACKFILL_MSSQL_URL), where everything is written in a scratch schema the bench"
                + " creates and drops. Arms run interleaved; the median of --repeat runs stands for each arm.")
public final class BenchCommand implements Callable<Integer> {
    @Mixin
    SqlServerTargetOptions sqlServer;

    @Option(names = "--rows", defaultValue = "1000000", description = "Source rows (default ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--lanes", defaultValue = "4", description = "Lanes, and workers of the chunked arms (default ${DEFAULT-VALUE}).")
    int lanes;

    @Option(names = {"--chunks", "--buckets"}, defaultValue = "64", description = "Chunks of the plan every chunked arm follows (default ${DEFAULT-VALUE}).")
    int chunks;

    @Option(names = "--kind", defaultValue = "uuid", description = "Chunk kind: uuid (a uuid key), integer (a bigint key) or physical (block ranges; a uuid key) (default ${DEFAULT-VALUE}).")
    String kind;

    @Option(names = "--repeat", defaultValue = "1", description = "Runs of each arm, interleaved; the median run is reported (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--arms", defaultValue = "B0,B1,B2,S", split = ",", description = "Arms to run, of B0, B1, B2, S, R (R: S, then reconciliation passes; it changes 1%% of the source, so list it last) (default ${DEFAULT-VALUE}).")
    List<String> arms;

    @Option(names = "--format", defaultValue = "table", description = "table or json (default ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--html", description = "Also write a self-contained HTML page with a chart of rows committed over time.")
    Path html;

    @Option(names = "--lane-heap", defaultValue = "64m", description = "Each lane's -Xmx: chunks larger than it prove streaming (default ${DEFAULT-VALUE}).")
    String laneHeap;

    @Option(names = "--publication-verify", defaultValue = "content", description = "The campaign arm's publication.verify:"
            + " content (the read-back gate, ADR 0036) or counts, to measure the gate's cost (default ${DEFAULT-VALUE}).")
    String publicationVerify;

    @Option(names = "--rows-per-second", defaultValue = "0", description = "The campaign arm's rows/s ceiling"
            + " (spec.throttle.rowsPerSecond); the report sets its load rate beside it; 0: none (default ${DEFAULT-VALUE}).")
    long rowsPerSecond;



    @Override
    public Integer call() throws Exception {
        Bench.Settings settings = settings();
        Bench bench = new Bench(settings, (blueprint, source, target) -> DriverRun.execute(blueprint, source, target, null,
                false, null, (io.dpone.backfill.cli.OutputFormat) null),
                (blueprint, source, target) -> io.dpone.backfill.cli.run.ReconcileRun.execute(blueprint, source, target,
                        java.time.Duration.ZERO, io.dpone.backfill.cli.run.ReconcileRun.Decisions.NONE,
                        line -> System.err.println("bench: " + line)).exitCode(), line -> System.err.println("bench: " + line));
        Bench.Result result = bench.run();
        System.out.print("json".equals(format) ? result.json() + System.lineSeparator() : result.table());
        if (html != null) {
            Files.writeString(html, result.html());
            System.err.println("bench: chart written to " + html);
        }
        return ExitCodes.OK;
    }

    /** Every option checked before anything starts; a bad one is named. */
    private Bench.Settings settings() {
        require(rows >= 1, "--rows must be at least 1");
        require(lanes >= 1 && lanes <= 64, "--lanes must be between 1 and 64");
        require(chunks >= 1 && chunks <= ChunkSpec.MAX_BUCKETS, "--chunks must be between 1 and " + ChunkSpec.MAX_BUCKETS);
        require(kind.equals("uuid") || kind.equals("integer") || kind.equals("physical"), "--kind must be uuid, integer or physical, not " + kind);
        require(kind.equals("uuid") || chunks <= rows, "--chunks must not exceed --rows with --kind integer");
        require(repeat >= 1 && repeat <= 99, "--repeat must be between 1 and 99");
        require(format.equals("table") || format.equals("json"), "--format must be table or json, not " + format);
        require(laneHeap.matches("[0-9]+[kKmMgG]?"), "--lane-heap must be a JVM size such as 64m, not " + laneHeap);
        require(publicationVerify.equals("content") || publicationVerify.equals("counts"),
                "--publication-verify must be content or counts, not " + publicationVerify);
        require(rowsPerSecond >= 0 && rowsPerSecond <= io.dpone.backfill.core.campaign.ThrottleSpec.MAX_PER_SECOND,
                "--rows-per-second must be between 0 (none) and " + io.dpone.backfill.core.campaign.ThrottleSpec.MAX_PER_SECOND);
        List<String> known = Bench.armCodes();
        List<String> asked = arms.stream().map(String::trim).map(String::toUpperCase).toList();
        for (String arm : asked) {
            require(known.contains(arm), "--arms: unknown arm " + arm + " (arms are " + String.join(", ", known) + ")");
        }
        require(asked.stream().distinct().count() == asked.size(), "--arms names an arm twice");
        ConnectionSettings server = sqlServer.server();
        String scratch = sqlServer.scratchSchema();
        ChunkKind chunkKind = Arrays.stream(ChunkKind.values()).filter(k -> k.wireName().equals(kind)).findFirst().orElseThrow();
        return new Bench.Settings(rows, lanes, chunks, chunkKind, repeat, asked, laneHeap, server, scratch, publicationVerify,
                rowsPerSecond);
    }

    private void require(boolean condition, String message) {
        sqlServer.require(condition, message);
    }
}

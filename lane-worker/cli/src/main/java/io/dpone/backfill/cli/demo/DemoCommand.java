package io.dpone.backfill.cli.demo;

import io.dpone.backfill.core.campaign.SourceType;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.wiring.Connectors;
import io.dpone.backfill.cli.SqlServerTargetOptions;
import io.dpone.backfill.cli.plan.PlanReport;
import io.dpone.backfill.cli.run.DriverRun;
import io.dpone.backfill.cli.scratch.ScratchSchema;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.pgembedded.EmbeddedPostgres;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.Callable;

/**
 * {@code backfill demo}: the whole product on embedded defaults. Starts a real PostgreSQL 17, creates a sample source
 * with realistic types and a reviewed target, runs a 4-lane shadow_swap campaign to the XMin handoff with lanes as
 * child processes, prints the evidence and checks the published table against the source. With a SQL Server URL
 * the target is that server, in a scratch schema the demo creates, names and (unless kept) drops.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run a complete shadow_swap campaign from an embedded PostgreSQL and print the evidence. The target"
                + " is a second database of that PostgreSQL, or the SQL Server of --target-url (BACKFILL_MSSQL_URL), in a new"
                + " scratch schema.")
public final class DemoCommand implements Callable<Integer> {
    @Mixin
    SqlServerTargetOptions sqlServer;

    @Option(names = "--rows", defaultValue = "1000000", description = "Source rows to generate (default ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--lanes", defaultValue = "4", description = "Parallel lanes (default ${DEFAULT-VALUE}).")
    int lanes;

    @Option(names = {"--chunks", "--buckets"}, defaultValue = "64", description = "Chunks (default ${DEFAULT-VALUE}).")
    int buckets;



    @Option(names = "--keep-scratch", description = "Keep the SQL Server scratch schema (published table, backup, ledger) to look at.")
    boolean keepScratch;

    @Override
    public Integer call() throws Exception {
        require(rows >= 1, "--rows must be at least 1");
        require(lanes >= 1 && lanes <= 64, "--lanes must be between 1 and 64");
        require(buckets >= 1 && buckets <= 16_384, "--chunks must be between 1 and 16384");
        ConnectionSettings server = sqlServer.server();
        String scratch = sqlServer.scratchSchema();
        ScratchSchema schema = server == null ? null : new ScratchSchema(server, scratch);
        if (schema != null) {
            // First, before anything else starts: an existing schema (or an unreachable server) stops the demo here.
            schema.create();
        }
        long started = System.nanoTime();
        try (EmbeddedPostgres pg = EmbeddedPostgres.start()) {
            log("embedded PostgreSQL 17 on 127.0.0.1:" + pg.port());
            pg.createDatabase("demo_source");
            try (Connection source = pg.connect("demo_source")) {
                long t = System.nanoTime();
                DemoData.createSource(source, rows);
                log(String.format("source public.orders: %,d rows generated in %.1f s", rows, (System.nanoTime() - t) / 1e9));
            }
            // The demo's source is the embedded server: the registry's adapter for its type says how to reach it.
            ConnectionSettings sourceSettings = new ConnectionSettings(pg.jdbcUrl("demo_source"), null, null,
                    Connectors.source(SourceType.POSTGRES).endpoint());
            int code = schema == null ? onPostgres(pg, sourceSettings) : onSqlServer(pg, sourceSettings, server, schema);
            if (code != ExitCodes.OK) {
                return code;
            }
        }
        log(String.format("demo finished in %.1f s", (System.nanoTime() - started) / 1e9));
        return ExitCodes.OK;
    }

    private int onPostgres(EmbeddedPostgres pg, ConnectionSettings source) throws Exception {
        pg.createDatabase("demo_target");
        try (Connection target = pg.connect("demo_target")) {
            DemoData.createReviewedTarget(target);
        }
        String campaign = DemoData.campaignYaml(lanes, buckets);
        TargetType into = CampaignReader.parse(campaign).spec().getTarget().getType();
        int code = runCampaign(campaign, source,
                new ConnectionSettings(pg.jdbcUrl("demo_target"), null, null, Connectors.target(into).endpoint()));
        if (code == ExitCodes.OK) {
            DemoVerification.postgres(pg).report(DemoCommand::log);
        }
        return code;
    }

    private int onSqlServer(EmbeddedPostgres pg, ConnectionSettings source, ConnectionSettings server, ScratchSchema schema)
            throws Exception {
        String scratch = schema.name();
        log("target: SQL Server " + server.redacted() + ", scratch schema " + scratch + " (table, ledger, shadow and backup)");
        try {
            try (Connection target = server.open("backfill-demo"); Statement s = target.createStatement()) {
                for (String sql : DemoData.sqlServerTarget(scratch)) {
                    s.execute(sql);
                }
            }
            int code = runCampaign(DemoData.campaignYaml(lanes, buckets, "mssql", scratch, scratch), source, server);
            if (code == ExitCodes.OK) {
                DemoVerification.sqlServer(pg, server, scratch).report(DemoCommand::log);
            }
            return code;
        } finally {
            if (keepScratch) {
                log("scratch schema " + scratch + " kept (--keep-scratch)");
            } else {
                schema.drop();
                log("scratch schema " + scratch + " dropped");
            }
        }
    }

    private int runCampaign(String campaign, ConnectionSettings source, ConnectionSettings target) throws Exception {
        CampaignBlueprint blueprint = CampaignBlueprint.of(CampaignReader.parse(campaign));
        log("campaign: " + PlanReport.summaryLine(blueprint));
        int code = DriverRun.execute(blueprint, source, target, null, false, null);
        if (code != ExitCodes.OK) {
            log("the campaign did not reach its handoff (exit " + code + ")");
        }
        return code;
    }

    private void require(boolean condition, String message) {
        sqlServer.require(condition, message);
    }

    private static void log(String line) {
        System.err.println("demo: " + line);
    }
}

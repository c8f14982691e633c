package io.dpone.backfill.cli;

import io.dpone.backfill.cli.certify.Certification;
import io.dpone.backfill.cli.certify.CertifyReport;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code backfill certify}: the reference design's smoke scenarios on the user's own servers, in scratch objects it
 * creates, names and drops (ADR 0019). The user's tables are only read.
 */
@Command(name = "certify", mixinStandardHelpOptions = true,
        description = {"Prove the crash protocol on your own source and target servers, in scratch schemas it creates.",
                "In a new scratch schema on each server, a copy of a bounded sample of the campaign's source table is"
                        + " loaded by scratch campaigns of 10 chunks and 4 lanes as real `backfill run` processes, killed at"
                        + " every fault point (a lane after its claim, mid-copy, before and after its commit; the driver in"
                        + " preparation, before, inside and after publication), each finished by ONE `backfill resume`.",
                "Each is checked: no missing or duplicate key, receipts and ledger agree, no reader ever sees a partial"
                        + " live table, an older generation's shadow kept.",
                "Writes a JSON report (src-docs/certify-report.schema.json) and a summary; drops the scratch schemas"
                        + " unless --keep.",
                "Exit codes: 0 every scenario passed with every fault point reached, 8 a scenario failed or a point was"
                        + " not reached (see the report), 2 invalid input (nothing created), 1 other failure."})
public final class CertifyCommand implements Callable<Integer> {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss");

    @Spec
    CommandLine.Model.CommandSpec command;

    @Mixin
    CampaignOptions campaign;

    @Option(names = "--report", paramLabel = "FILE", defaultValue = "backfill-certify-report.json",
            description = "Where the JSON report goes (default ./${DEFAULT-VALUE}).")
    Path report;

    @Option(names = "--keep", description = "Keep the scratch schemas (tables, ledger, shadows, backups) to look at.")
    boolean keep;

    @Option(names = "--scratch-schema", paramLabel = "NAME", description = "Name of the scratch schema on the source and the"
            + " target (must not exist on either; default bf_certify_<UTC time>).")
    String scratchSchema;

    @Option(names = "--sample-rows", paramLabel = "N", defaultValue = "8000", description = {"Rows copied from the campaign's"
            + " source table into the scratch source (default ${DEFAULT-VALUE}; at least 1000: the mid-copy point fires"
            + " at a chunk's 500th row)."})
    long sampleRows;

    @Option(names = "--scenario-timeout", paramLabel = "SECONDS", defaultValue = "300",
            description = "Longest a scenario's run or resume may take (default ${DEFAULT-VALUE} s).")
    long scenarioTimeout;

    @Option(names = "--lease-seconds", paramLabel = "SECONDS", description = {"Lease TTL of the scratch campaigns (renewed"
            + " every tenth of it; default 10 on PostgreSQL, 30 on SQL Server).", "A killed lane's chunk waits for it"
            + " before it is claimed again; raise it when a loaded server makes drivers lose their lease."})
    Integer leaseSeconds;

    @Option(names = "--scenario", paramLabel = "ID", description = {"Run only the scenario with this id (repeatable; the ids"
            + " are those of the summary and the report), e.g. to re-run one that failed.", "A partial run can pass but"
            + " does not certify: only a run of every scenario reaches every fault point."})
    List<String> scenarios;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "Scratch campaign files and process logs (default"
            + " <tmp>/backfill-certify-<scratch schema>).")
    Path workDir;

    @Override
    public Integer call() throws Exception {
        // Every check on input first: nothing is created before all of them passed.
        require(sampleRows >= 1000 && sampleRows <= 1_000_000, "--sample-rows must be between 1000 and 1000000, got " + sampleRows);
        require(leaseSeconds == null || (leaseSeconds >= 3 && leaseSeconds <= 300), "--lease-seconds must be between 3 and 300");
        try {
            Certification.requireKnownScenarios(scenarios);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(command.commandLine(), "--scenario: " + e.getMessage());
        }
        require(scenarioTimeout >= 30 && scenarioTimeout <= 3600, "--scenario-timeout must be between 30 and 3600 seconds");
        String schema = scratchSchema != null ? scratchSchema
                : "bf_certify_" + LocalDateTime.now(ZoneOffset.UTC).format(STAMP);
        require(schema.matches("[a-z_][a-z0-9_]{0,39}"), "--scratch-schema must be 1-40 lower-case letters, digits or"
                + " underscores, starting with a letter or underscore (scratch backfill ids and artifact names derive from it)");
        Path reportFile = report.toAbsolutePath();
        require(!Files.isDirectory(reportFile), "--report " + report + " is a directory; name a file");
        require(reportFile.getParent() == null || Files.isDirectory(reportFile.getParent()),
                "--report " + report + ": directory " + reportFile.getParent() + " does not exist");
        CampaignBlueprint blueprint = campaign.blueprint();
        BackfillCampaignSpec spec = blueprint.definition().spec();
        Connectors.target(spec.getTarget().getType());
        ConnectionSettings source;
        ConnectionSettings target;
        try {
            source = campaign.source(spec);
            target = campaign.target(spec);
        } catch (IllegalArgumentException e) {
            // No Secret and no environment for a connection the campaign names: a usage error, like a bad option.
            throw new CommandLine.ParameterException(command.commandLine(), "--secrets: " + e.getMessage());
        }
        String sourceSchema = spec.getSource().getSchema() == null ? "public" : spec.getSource().getSchema();
        requireTable(source, "SELECT count(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = ?",
                sourceSchema, spec.getSource().getTable(), "spec.source.table");
        requireTable(target, "SELECT count(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = ?",
                blueprint.artifacts().schema(), spec.getTarget().getTable(), "spec.target.table");
        Path work = workDir != null ? workDir : Path.of(System.getProperty("java.io.tmpdir"), "backfill-certify-" + schema);
        Files.createDirectories(work);

        CertifyReport result = new Certification(new Certification.Settings(blueprint, source, target, schema, sampleRows,
                work.toAbsolutePath(), keep, Duration.ofSeconds(scenarioTimeout), leaseSeconds, scenarios), line -> System.err.println("certify: " + line)).run();
        result.write(reportFile);
        result.summary(System.out::println);
        System.out.println("certify: report " + reportFile);
        return result.passed() ? ExitCodes.OK : ExitCodes.NOT_CERTIFIED;
    }

    private void requireTable(ConnectionSettings server, String sql, String schema, String table, String field) throws Exception {
        try (Connection c = server.open("backfill-certify"); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                require(rs.getLong(1) > 0, field + ": table " + schema + "." + table + " does not exist on " + server.redacted()
                        + " (certify copies its shape and, for the source, a sample of its rows)");
            }
        }
    }

    private void require(boolean condition, String message) {
        if (!condition) {
            throw new CommandLine.ParameterException(command.commandLine(), message);
        }
    }
}

package io.dpone.backfill.cli.certify;

import io.dpone.backfill.connect.CampaignConnections;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The certification run (ADR 0019): scratch objects from the user's campaign, every {@link Scenario} as real
 * `backfill run` and `backfill resume` processes with a fault point armed and a crash there, the invariants checked
 * after each, fault-point coverage, and the scratch objects dropped unless kept.
 */
public final class Certification {
    /**
     * Everything certify is told: the user's campaign and connections, and its own settings. {@code scenarios}: the
     * ids of {@code --scenario} (null or empty: every scenario, the only run that certifies).
     */
    public record Settings(CampaignBlueprint campaign, ConnectionSettings source, ConnectionSettings target,
                           String scratchSchema, long sampleRows, Path workDir, boolean keep, Duration scenarioTimeout,
                           Integer leaseSeconds, List<String> scenarios) {
        public Settings {
            Scenario.selected(scenarios);
            scenarios = scenarios == null ? List.of() : List.copyOf(scenarios);
        }
    }

    /** Throws {@link IllegalArgumentException} naming the known ids when one of {@code ids} is not a scenario. */
    public static void requireKnownScenarios(List<String> ids) {
        Scenario.selected(ids);
    }

    /**
     * The scratch campaigns' lease TTL unless {@code --lease-seconds} says otherwise. A killed lane's chunk is claimed
     * again once its lease expires, so the TTL adds to a lane scenario's resume; too short a TTL loses a driver's
     * lease on a loaded server (Babelfish parses every new statement shape slowly).
     */
    static int defaultLeaseSeconds(TargetType target) {
        return target == TargetType.MSSQL ? 30 : 10;
    }

    static final int CHUNKS = 10;
    static final int LANES = 4;

    private final Settings settings;
    private final Consumer<String> log;
    private final BackfillCampaignSpec spec;
    private final TargetDialect dialect;

    public Certification(Settings settings, Consumer<String> log) {
        this.settings = settings;
        this.log = log;
        this.spec = settings.campaign().definition().spec();
        this.dialect = TargetDialect.of(spec.getTarget().getType());
    }

    /** Runs every scenario and returns the report; {@link CertifyReport#passed()} says whether all held. */
    public CertifyReport run() throws Exception {
        Instant started = Instant.now();
        CertifyReport report = new CertifyReport(spec.getTarget().getType(), started);
        List<Scenario> scenarios = Scenario.selected(settings.scenarios());
        if (scenarios.size() < Scenario.all().size()) {
            report.partial(scenarios.stream().map(Scenario::id).toList());
        }
        String sourceSchema = spec.getSource().getSchema() == null ? "public" : spec.getSource().getSchema();
        String targetSchema = settings.campaign().artifacts().schema();
        report.campaign(settings.campaign().definition().name(), spec.getBackfillId(), sourceSchema + "." + spec.getSource().getTable(),
                targetSchema + "." + spec.getTarget().getTable());
        try (Connection s = settings.source().open("backfill-certify"); Connection t = settings.target().open("backfill-certify")) {
            report.servers(TargetDialect.POSTGRES.version(s), dialect.version(t));
        }
        boolean babelfish = TargetDialect.isBabelfish(report.targetVersion());
        report.notProven(NotProven.on(spec.getTarget().getType(), babelfish));
        CertifyScratch scratch = new CertifyScratch(settings.scratchSchema(), settings.source(), settings.target(), dialect, log);
        report.scratch(settings.scratchSchema(), CertifyScratch.SOURCE_TABLE, CertifyScratch.LIVE_TABLE, settings.workDir());
        log.accept("scratch schema " + settings.scratchSchema() + " (source table " + CertifyScratch.SOURCE_TABLE + ", target table "
                + CertifyScratch.LIVE_TABLE + ", ledger, shadows, backups); work directory " + settings.workDir());
        try {
            long rows = scratch.createSource(sourceSchema, spec.getSource().getTable(), settings.sampleRows());
            scratch.createTarget(targetSchema, spec.getTarget().getTable());
            report.sampleRows(rows);
            if (rows == 0) {
                report.abort("the source table " + sourceSchema + "." + spec.getSource().getTable() + " holds no rows to sample");
                return report;
            }
            runScenarios(scenarios, scratch, rows, report);
        } catch (Exception e) {
            report.abort(e.getClass().getSimpleName() + ": " + e.getMessage());
            log.accept("certification stopped: " + e.getMessage());
        } finally {
            if (settings.keep()) {
                log.accept("scratch objects kept (--keep): schema " + settings.scratchSchema() + " on the source and the target");
                report.scratchKept();
            } else {
                report.scratchDropped(scratch.drop());
            }
            report.finish(Instant.now());
        }
        return report;
    }

    private void runScenarios(List<Scenario> scenarios, CertifyScratch scratch, long rows, CertifyReport report) throws Exception {
        Map<String, String> env = childEnvironment();
        String[] bounds = integerBounds();
        try (Connection t = settings.target().open("backfill-certify-probe"); Connection s = settings.source().open("backfill-certify-probe")) {
            TableProbe target = new TableProbe(t, dialect, settings.scratchSchema());
            TableProbe source = new TableProbe(s, TargetDialect.POSTGRES, settings.scratchSchema());
            ScenarioChecks checks = new ScenarioChecks(target, source, dialect, settings.scratchSchema(), spec.getUniqueKey(), rows);
            OlderGeneration older = null;
            Map<FaultPoint, List<String>> coverage = new LinkedHashMap<>();
            for (FaultPoint p : FaultPoint.values()) {
                coverage.put(p, new ArrayList<>());
            }
            int index = 0;
            for (Scenario scenario : scenarios) {
                index++;
                scratch.emptyLive();
                String backfillId = settings.scratchSchema() + "_" + index;
                Path dir = Files.createDirectories(settings.workDir().resolve(String.format("%02d-%s", index, scenario.id())));
                Path campaign = Files.writeString(dir.resolve("campaign.yaml"), scratchCampaign(backfillId, scenario.id(), bounds));
                CampaignBlueprint blueprint = CampaignBlueprint.of(CampaignReader.parse(Files.readString(campaign)));
                log.accept("scenario " + index + "/" + scenarios.size() + " " + scenario.id() + ": fault " + scenario.faultSpec()
                        + " in the " + scenario.role().wireName() + " (campaign " + backfillId + ")");
                ScenarioOutcome outcome = new ScenarioOutcome(scenario);
                outcome.backfillId = backfillId;
                outcome.runKey = blueprint.identity().runKey();
                outcome.sourceRows = rows;
                try {
                    new ScenarioRun(scenario, blueprint, campaign, dir, env, settings.target(), checks, older,
                            settings.scenarioTimeout(), outcome).execute();
                } catch (Exception e) {
                    // One scenario's error fails that scenario; the others still run and report.
                    outcome.check("scenario-completed", false, e.getClass().getSimpleName() + ": " + e.getMessage());
                }
                if (outcome.fault != null) {
                    coverage.get(scenario.point()).add(scenario.id());
                }
                if (scenario.id().equals(Scenario.OLDER_GENERATION)) {
                    older = new OlderGeneration(blueprint.artifacts().shadowTable(), rows);
                }
                report.scenario(outcome);
                log.accept("scenario " + scenario.id() + ": " + (outcome.passed() ? "passed" : "FAILED "
                        + outcome.failures().stream().map(c -> c.name() + " (" + c.detail() + ")").toList()));
            }
            report.coverage(coverage);
        }
    }

    /** The older generation's validated shadow, which every later generation must leave as it was. */
    record OlderGeneration(String shadowTable, long rows) {
    }

    /** Integer chunks are planned over the sample's own key range; other kinds need no bounds. */
    private String[] integerBounds() throws Exception {
        if (spec.getChunk().getKind() != ChunkKind.INTEGER) {
            return null;
        }
        try (Connection s = settings.source().open("backfill-certify")) {
            TableProbe probe = new TableProbe(s, TargetDialect.POSTGRES, settings.scratchSchema());
            String column = TargetDialect.POSTGRES.quote(spec.getChunk().getColumn());
            String table = probe.table(CertifyScratch.SOURCE_TABLE);
            long min = probe.single("SELECT min(" + column + ") FROM " + table);
            long max = probe.single("SELECT max(" + column + ") FROM " + table);
            return new String[]{Long.toString(min), Long.toString(max + 1)};
        }
    }

    /** A scratch campaign: the user's key and chunk column, 10 chunks, 4 lanes, every table in the scratch schema. */
    String scratchCampaign(String backfillId, String name, String[] bounds) {
        String key = String.join(", ", spec.getUniqueKey().stream().map(Certification::yamlString).toList());
        StringBuilder chunk = new StringBuilder("{kind: " + yamlKind(spec.getChunk().getKind()) + ", buckets: " + CHUNKS);
        if (spec.getChunk().getColumn() != null && spec.getChunk().getKind() != ChunkKind.PHYSICAL) {
            chunk.append(", column: ").append(yamlString(spec.getChunk().getColumn()));
        }
        if (bounds != null) {
            chunk.append(", lowerBound: ").append(bounds[0]).append(", upperBound: ").append(bounds[1]);
        }
        chunk.append('}');
        String schema = yamlString(settings.scratchSchema());
        return """
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata: {name: certify-%s}
                spec:
                  backfillId: %s
                  source: {type: postgres, connectionSecretRef: {name: %s}, schema: %s, table: %s}
                  target: {type: %s, connectionSecretRef: {name: %s}, schema: %s, table: %s}
                  uniqueKey: [%s]
                  chunk: %s
                  parallelWorkers: %d
                  state: {schema: %s}
                  publication: {mode: shadow_swap, artifactScope: campaign}
                """.formatted(name, backfillId, yamlString(spec.getSource().getConnectionSecretRef().getName()), schema,
                CertifyScratch.SOURCE_TABLE, spec.getTarget().getType().wireName(),
                yamlString(spec.getTarget().getConnectionSecretRef().getName()), schema, CertifyScratch.LIVE_TABLE, key, chunk,
                LANES, schema) + columns(spec);
    }

    private static String yamlKind(ChunkKind kind) {
        return kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String yamlString(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** Connections only through the environment, like lanes and pods; short leases so a crash is taken over in seconds. */
    private Map<String, String> childEnvironment() {
        Map<String, String> env = new HashMap<>();
        CampaignConnections.export(CampaignConnections.SOURCE, settings.source(), env);
        CampaignConnections.export(CampaignConnections.TARGET, settings.target(), env);
        int ttl = settings.leaseSeconds() != null ? settings.leaseSeconds() : defaultLeaseSeconds(spec.getTarget().getType());
        env.put("BACKFILL_LEASE_TTL_SECONDS", Integer.toString(ttl));
        env.put("BACKFILL_LEASE_RENEW_SECONDS", Double.toString(Math.max(1.0, ttl / 10.0)));
        env.put("BACKFILL_DRAIN_SECONDS", "20");
        env.put("BACKFILL_LOCK_TIMEOUT_SECONDS", "20");
        return env;
    }

    /** Lines of a resume's output that say what it did to recover. */
    static List<String> recoveryLines(String output) {
        Set<String> seen = new HashSet<>();
        List<String> out = new ArrayList<>();
        for (String line : output.lines().toList()) {
            String l = line.trim();
            if ((l.contains("took the campaign over") || l.contains("re-queued") || l.contains("waiting for the driver")
                    || l.contains("HandoffCommitted:")) && seen.add(l) && out.size() < 8) {
                out.add(l.startsWith("backfill: ") ? l.substring("backfill: ".length()) : l);
            }
        }
        return out;
    }

    static Optional<String> tail(String text, int lines) {
        List<String> all = text.lines().toList();
        return all.isEmpty() ? Optional.empty() : Optional.of(String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size())));
    }

    /** The campaign's column mapping, so scratch tables of the two shapes pair as the campaign's do (issue 27). */
    private static String columns(BackfillCampaignSpec spec) {
        if (spec.getColumns() == null) {
            return "";
        }
        StringBuilder y = new StringBuilder("  columns: {naming: ").append(spec.columnMapping().naming().wireName());
        if (!spec.columnMapping().pairs().isEmpty()) {
            y.append(", map: {").append(String.join(", ", spec.columnMapping().pairs().entrySet().stream()
                    .map(e -> yamlString(e.getKey()) + ": " + yamlString(e.getValue())).toList())).append('}');
        }
        return y.append("}\n").toString();
    }
}

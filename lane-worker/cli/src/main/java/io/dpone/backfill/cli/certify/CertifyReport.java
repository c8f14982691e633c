package io.dpone.backfill.cli.certify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.redaction.CredentialScrubber;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The certification report (src-docs/certify-report.schema.json): route, server versions, scratch objects, every
 * scenario with where its fault was injected, outcome, missing / duplicate keys, partial-live exposures, resume
 * actions and durations, fault-point coverage, and what this engine cannot prove.
 */
public final class CertifyReport {
    public static final int REPORT_VERSION = 1;
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final TargetType target;
    private final Instant started;
    private Instant finished;
    private String campaignName;
    private String backfillId;
    private String sourceTable;
    private String targetTable;
    private String sourceVersion;
    private String targetVersion;
    private String scratchSchema;
    private String scratchSource;
    private String scratchLive;
    private Path workDir;
    private long sampleRows;
    private boolean kept;
    private List<String> dropFailures = List.of();
    private String aborted;
    private List<NotProven> notProven = List.of();
    private final List<ScenarioOutcome> scenarios = new ArrayList<>();
    private Map<FaultPoint, List<String>> coverage;
    /** The scenarios of a partial run ({@code --scenario}); null when every scenario ran. */
    private List<String> selected;

    CertifyReport(TargetType target, Instant started) {
        this.target = target;
        this.started = started;
    }

    void campaign(String name, String backfillId, String sourceTable, String targetTable) {
        this.campaignName = name;
        this.backfillId = backfillId;
        this.sourceTable = sourceTable;
        this.targetTable = targetTable;
    }

    void servers(String source, String target) {
        this.sourceVersion = source;
        this.targetVersion = target;
    }

    String targetVersion() {
        return targetVersion;
    }

    void notProven(List<NotProven> notProven) {
        this.notProven = notProven;
    }

    void scratch(String schema, String sourceTable, String liveTable, Path workDir) {
        this.scratchSchema = schema;
        this.scratchSource = sourceTable;
        this.scratchLive = liveTable;
        this.workDir = workDir;
    }

    void sampleRows(long rows) {
        this.sampleRows = rows;
    }

    void abort(String reason) {
        this.aborted = reason;
    }

    void scratchKept() {
        this.kept = true;
    }

    void scratchDropped(List<String> failures) {
        this.dropFailures = failures;
    }

    void finish(Instant at) {
        this.finished = at;
    }

    /** A run of only these scenarios: it can pass, but it certifies nothing, because it cannot reach every point. */
    void partial(List<String> scenarioIds) {
        this.selected = List.copyOf(scenarioIds);
    }

    void scenario(ScenarioOutcome outcome) {
        scenarios.add(outcome);
    }

    void coverage(Map<FaultPoint, List<String>> coverage) {
        this.coverage = coverage;
    }

    List<String> missingPoints() {
        List<String> out = new ArrayList<>();
        for (FaultPoint p : FaultPoint.values()) {
            if (coverage == null || coverage.getOrDefault(p, List.of()).isEmpty()) {
                out.add(p.wireName());
            }
        }
        return out;
    }

    /**
     * Every scenario passed, every fault point was reached (in a partial run: every point of a selected scenario),
     * nothing stopped the run, the scratch objects went away.
     */
    public boolean passed() {
        return aborted == null && !scenarios.isEmpty() && scenarios.stream().allMatch(ScenarioOutcome::passed)
                && (selected == null ? missingPoints().isEmpty() : scenarios.stream().allMatch(o -> o.fault != null))
                && dropFailures.isEmpty();
    }

    public ObjectNode json() {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("reportVersion", REPORT_VERSION);
        root.put("passed", passed());
        root.put("startedAt", started.toString());
        root.put("finishedAt", (finished == null ? Instant.now() : finished).toString());
        root.put("durationMs", Duration.between(started, finished == null ? Instant.now() : finished).toMillis());
        if (aborted != null) {
            root.put("aborted", aborted);
        }
        if (selected != null) {
            ArrayNode only = root.putArray("selectedScenarios");
            selected.forEach(only::add);
        }
        ObjectNode route = root.putObject("route");
        route.put("source", "postgres");
        route.put("target", target.wireName());
        route.put("engine", target == TargetType.POSTGRES ? "postgresql"
                : TargetDialect.isBabelfish(targetVersion) ? "babelfish" : "sqlserver");
        ObjectNode servers = root.putObject("servers");
        servers.put("source", sourceVersion);
        servers.put("target", targetVersion);
        ObjectNode campaign = root.putObject("campaign");
        campaign.put("name", campaignName);
        campaign.put("backfillId", backfillId);
        campaign.put("sourceTable", sourceTable);
        campaign.put("targetTable", targetTable);
        ObjectNode scratch = root.putObject("scratch");
        scratch.put("schema", scratchSchema);
        scratch.put("sourceTable", scratchSchema + "." + scratchSource);
        scratch.put("targetTable", scratchSchema + "." + scratchLive);
        scratch.put("sampleRows", sampleRows);
        scratch.put("chunks", Certification.CHUNKS);
        scratch.put("lanes", Certification.LANES);
        scratch.put("workDirectory", workDir == null ? null : workDir.toString());
        scratch.put("kept", kept);
        scratch.put("dropped", !kept && dropFailures.isEmpty() && scratchSchema != null);
        ArrayNode dropErrors = scratch.putArray("dropFailures");
        dropFailures.forEach(dropErrors::add);
        ArrayNode list = root.putArray("scenarios");
        for (ScenarioOutcome o : scenarios) {
            list.add(scenarioJson(o));
        }
        ObjectNode cov = root.putObject("faultPointCoverage");
        List<String> missing = missingPoints();
        cov.put("complete", missing.isEmpty());
        ObjectNode points = cov.putObject("points");
        for (FaultPoint p : FaultPoint.values()) {
            ArrayNode by = points.putArray(p.wireName());
            if (coverage != null) {
                coverage.getOrDefault(p, List.of()).forEach(by::add);
            }
        }
        ArrayNode miss = cov.putArray("notReached");
        missing.forEach(miss::add);
        ArrayNode np = root.putArray("notProvenOnThisEngine");
        for (NotProven n : notProven) {
            ObjectNode e = np.addObject();
            e.put("claim", n.claim());
            e.put("reason", n.reason());
        }
        return root;
    }

    private static ObjectNode scenarioJson(ScenarioOutcome o) {
        ObjectNode s = MAPPER.createObjectNode();
        s.put("id", o.scenario.id());
        s.put("outcome", o.passed() ? "passed" : "failed");
        s.put("backfillId", o.backfillId);
        s.put("runKey", o.runKey);
        ObjectNode fault = s.putObject("fault");
        fault.put("point", o.scenario.point().wireName());
        fault.put("armedIn", o.scenario.role().wireName());
        fault.put("where", o.scenario.where());
        fault.put("reached", o.fault != null);
        if (o.fault != null) {
            fault.put("process", o.fault.process());
            fault.put("pid", o.fault.pid());
            fault.put("stopped", o.fault.stopped());
            if (o.fault.chunk() >= 0) {
                fault.put("chunk", o.fault.chunk());
            } else {
                fault.putNull("chunk");
            }
        }
        s.put("sourceRows", o.sourceRows);
        putCount(s, "publishedRows", o.publishedRows);
        putCount(s, "missingKeys", o.missingKeys);
        putCount(s, "duplicateKeys", o.duplicateKeys);
        putCount(s, "unexpectedKeys", o.unexpectedKeys);
        s.put("partialLiveExposures", o.partialLiveExposures);
        s.put("liveReads", o.liveReads);
        ObjectNode seen = s.putObject("liveRowCountsSeen");
        o.liveCountsSeen.forEach((count, times) -> seen.put(Long.toString(count), times));
        s.put("resumeActions", o.resumeActions);
        ArrayNode actions = s.putArray("resumeLog");
        o.resumeActionsTaken.forEach(actions::add);
        if (o.resumeExitCode != null) {
            s.put("resumeExitCode", o.resumeExitCode);
        } else {
            s.putNull("resumeExitCode");
        }
        ObjectNode d = s.putObject("durationsMs");
        d.put("untilFault", o.millisToFault);
        d.put("resume", o.millisResume);
        d.put("total", o.millisTotal);
        ArrayNode checks = s.putArray("checks");
        for (ScenarioOutcome.Check c : o.checks) {
            ObjectNode e = checks.addObject();
            e.put("name", c.name());
            e.put("passed", c.passed());
            e.put("detail", c.detail());
        }
        ObjectNode logs = s.putObject("logs");
        logs.put("run", o.runLog);
        logs.put("resume", o.resumeLog);
        return s;
    }

    private static void putCount(ObjectNode node, String field, long value) {
        if (value < 0) {
            node.putNull(field);
        } else {
            node.put(field, value);
        }
    }

    public void write(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        // An aborted run's reason may quote a driver's message: the report leaves the process scrubbed (ADR 0043).
        Files.writeString(file, CredentialScrubber.scrub(MAPPER.writeValueAsString(json())) + "\n");
    }

    /** The summary a person reads: one line per scenario, coverage, what is not proven, the verdict. */
    public void summary(Consumer<String> out) {
        out.accept("certify: route postgres -> " + target.wireName() + " (" + json().get("route").get("engine").asText() + ")");
        out.accept("certify: source " + sourceVersion);
        out.accept("certify: target " + targetVersion);
        out.accept("certify: scratch " + scratchSchema + ", " + sampleRows + " sample rows, " + Certification.CHUNKS + " chunks, "
                + Certification.LANES + " lanes");
        for (ScenarioOutcome o : scenarios) {
            out.accept(String.format("certify: %-7s %-26s fault %-15s %s missing=%s duplicate=%s partial-live=%d resumes=%d %.1f s",
                    o.passed() ? "PASSED" : "FAILED", o.scenario.id(), o.scenario.point().wireName(),
                    o.fault == null ? "(not reached)" : o.fault.process() + (o.fault.chunk() >= 0 ? " chunk " + o.fault.chunk() : ""),
                    o.missingKeys < 0 ? "-" : Long.toString(o.missingKeys), o.duplicateKeys < 0 ? "-" : Long.toString(o.duplicateKeys),
                    o.partialLiveExposures, o.resumeActions, o.millisTotal / 1000.0));
            for (ScenarioOutcome.Check c : o.failures()) {
                out.accept("certify:         failed " + c.name() + ": " + c.detail());
            }
        }
        List<String> missing = missingPoints();
        out.accept("certify: fault-point coverage " + (FaultPoint.values().length - missing.size()) + "/" + FaultPoint.values().length
                + (missing.isEmpty() ? " (every point reached)" : ", not reached: " + missing));
        for (NotProven n : notProven) {
            out.accept("certify: not proven on this engine: " + n.claim() + " (" + n.reason() + ")");
        }
        if (aborted != null) {
            out.accept("certify: stopped: " + aborted);
        }
        dropFailures.forEach(f -> out.accept("certify: could not drop " + f));
        out.accept("certify: " + (passed() ? "PASSED" : "FAILED") + " (" + scenarios.stream().filter(ScenarioOutcome::passed).count()
                + "/" + scenarios.size() + (selected == null ? " scenarios passed)"
                : " selected scenarios passed; a partial run (--scenario) reaches only some fault points and certifies nothing)"));
    }
}

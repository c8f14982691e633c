package io.dpone.backfill.cli.certify;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.plan.CampaignBlueprint;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One scenario, start to end: `backfill run` with the fault point armed, the crash there (driver, lanes and the
 * frozen process SIGKILLed), the state the crash must leave, one `backfill resume`, and every invariant after it,
 * with a reader polling the live table the whole time.
 */
public final class ScenarioRun {
    private final Scenario scenario;
    private final CampaignBlueprint blueprint;
    private final Path campaign;
    private final Path dir;
    private final Map<String, String> env;
    private final ConnectionSettings target;
    private final ScenarioChecks checks;
    private final Certification.OlderGeneration older;
    private final Duration timeout;
    private final ScenarioOutcome outcome;

    ScenarioRun(Scenario scenario, CampaignBlueprint blueprint, Path campaign, Path dir, Map<String, String> env,
                ConnectionSettings target, ScenarioChecks checks, Certification.OlderGeneration older, Duration timeout,
                ScenarioOutcome outcome) {
        this.scenario = scenario;
        this.blueprint = blueprint;
        this.campaign = campaign;
        this.dir = dir;
        this.env = env;
        this.target = target;
        this.checks = checks;
        this.older = older;
        this.timeout = timeout;
        this.outcome = outcome;
    }

    void execute() throws Exception {
        long started = System.nanoTime();
        Map<String, String> faultEnv = new HashMap<>(env);
        faultEnv.put(scenario.faultVariable(), scenario.faultSpec());
        long rows = outcome.sourceRows;
        try (LiveReader reader = new LiveReader(target, checks.liveCountSql(), Set.of(0L, rows))) {
            try {
                crashAndResume(faultEnv, started);
            } finally {
                reader.close();
                outcome.liveReads = reader.reads();
                outcome.partialLiveExposures = reader.exposures();
                outcome.liveCountsSeen = reader.seen();
                outcome.check("no-partial-live-table", reader.exposures() == 0 && reader.reads() > 0,
                        reader.reads() + " reads of the live table saw row counts " + reader.seen() + " (allowed: 0, the old"
                                + " table, or " + rows + ", the complete new one)" + (reader.firstExposure() == null ? ""
                                : "; first exposure: " + reader.firstExposure()) + (reader.errors() == 0 ? ""
                                : "; " + reader.errors() + " reads waited past 5 s or failed and were repeated"));
            }
        } finally {
            outcome.millisTotal = (System.nanoTime() - started) / 1_000_000;
        }
    }

    private void crashAndResume(Map<String, String> faultEnv, long started) throws Exception {
        String point = scenario.point().wireName();
        try (ChildRun run = ChildRun.start(dir, "run", campaign, faultEnv)) {
            Optional<ChildRun.Fault> fault = run.awaitFault(point, timeout);
            outcome.millisToFault = (System.nanoTime() - started) / 1_000_000;
            if (fault.isEmpty()) {
                int code = run.process().isAlive() ? run.awaitExit(Duration.ZERO) : run.process().exitValue();
                outcome.runExitCode = code;
                outcome.runLog = run.outputFile().toString();
                outcome.check("fault-point-reached", false, "`backfill run` " + (code == -1 ? "was still running after "
                        + timeout.toSeconds() + " s" : "exited " + code) + " without reaching " + point + "; its output: "
                        + run.outputFile() + Certification.tail(run.output(), 6).map(t -> "\n" + t).orElse(""));
                return;
            }
            outcome.fault = fault.get();
            outcome.check("fault-point-reached", fault.get().stopped(), fault.get().process() + " pid " + fault.get().pid()
                    + (fault.get().stopped() ? " stopped at " : " announced but did not stop within 10 s at ") + point
                    + (fault.get().chunk() >= 0 ? " on chunk " + fault.get().chunk() : ""));
            run.crash(fault.get().pid());
            outcome.crashLog = Certification.tail(run.output(), 5).orElse("");
            outcome.runExitCode = null;
            outcome.runLog = run.outputFile().toString();
        }
        checks.afterCrash(scenario, blueprint, outcome);
        if (!scenario.resumes()) {
            outcome.resumeActions = 0;
            return;
        }
        Long epochBefore = checks.receiptEpoch(blueprint, outcome.fault.chunk());
        long resumeStarted = System.nanoTime();
        try (ChildRun resume = ChildRun.start(dir, "resume", campaign, env)) {
            outcome.resumeActions = 1;
            int code = resume.awaitExit(timeout);
            outcome.millisResume = (System.nanoTime() - resumeStarted) / 1_000_000;
            outcome.resumeExitCode = code;
            outcome.resumeLog = resume.outputFile().toString();
            String output = resume.output();
            outcome.resumeActionsTaken.addAll(Certification.recoveryLines(output));
            outcome.check("one-resume-finishes", code == 0 && output.contains("HandoffCommitted"), "one `backfill resume` exited "
                    + code + (code == 0 ? " at HandoffCommitted" : "; its output: " + resume.outputFile()
                    + Certification.tail(output, 8).map(t -> "\n" + t).orElse("")));
        }
        checks.afterResume(scenario, blueprint, outcome, epochBefore, older);
    }
}

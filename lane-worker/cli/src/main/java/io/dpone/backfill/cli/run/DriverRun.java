package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.OutputFormat;
import io.dpone.backfill.cli.status.ProgressDisplay;
import io.dpone.backfill.cli.local.LaneClassArchive;
import io.dpone.backfill.cli.local.LaneCommandLine;
import io.dpone.backfill.cli.local.LaneLogDirectory;
import io.dpone.backfill.cli.local.LocalLaneLauncher;
import io.dpone.backfill.connect.CampaignConnections;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.heal.HealingTimings;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.lane.DriverWatch;
import io.dpone.backfill.wiring.CampaignRuntime;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Assembles and runs a {@link LocalDriver}: connections, the lane launcher and its environment, progress. */
public final class DriverRun {
    private DriverRun() {
    }

    /**
     * {@code logDir}: where lane logs go, checked ({@link LaneLogDirectory#chosen}); null for a new private one.
     * {@code skipPreflightBy}: null to gate the start with pre-flight (always, unless an expert asked otherwise).
     */
    public static int execute(CampaignBlueprint blueprint, ConnectionSettings source, ConnectionSettings target, LaneLogDirectory logDir,
                       boolean resume, String skipPreflightBy) throws Exception {
        return execute(blueprint, source, target, logDir, resume, skipPreflightBy, OutputFormat.json);
    }

    public static int execute(CampaignBlueprint blueprint, ConnectionSettings source, ConnectionSettings target, LaneLogDirectory logDir,
                       boolean resume, String skipPreflightBy, OutputFormat report) throws Exception {
        return execute(blueprint, source, target, logDir, resume, skipPreflightBy, report,
                Duration.ofSeconds(DriverWaitOption.DEFAULT_SECONDS));
    }

    /**
     * {@code report}: what goes to stdout at the end: the evidence document ({@code json}), the final status and what
     * to do next ({@code text}), or nothing (null: a caller with its own report, the bench). {@code driverWait}: how
     * long to wait for another driver's live session to let go of the campaign (ADR 0016).
     */
    public static int execute(CampaignBlueprint blueprint, ConnectionSettings source, ConnectionSettings target, LaneLogDirectory logDir,
                       boolean resume, String skipPreflightBy, OutputFormat report, Duration driverWait) throws Exception {
        EngineTimings timings = EngineTimings.fromEnvironment(System.getenv());
        String runKey = blueprint.identity().runKey();
        // Never a predictable name under the shared tmp: a new directory only this user can write (ADR 0046).
        LaneLogDirectory logs = logDir != null ? logDir : LaneLogDirectory.fresh(runKey);
        Map<String, String> laneEnv = new HashMap<>();
        CampaignConnections.export(CampaignConnections.SOURCE, source, laneEnv);
        CampaignConnections.export(CampaignConnections.TARGET, target, laneEnv);
        // Lanes get their own fault hook (crash tests); the driver's must not leak into them.
        String laneFault = System.getenv("BACKFILL_LANE_FAULT");
        laneEnv.put("BACKFILL_FAULT", laneFault == null ? "" : laneFault);
        laneEnv.put(DriverWatch.VARIABLE, Long.toString(ProcessHandle.current().pid()));
        List<String> laneArgs = List.of("--run-key", runKey, "--state-schema", blueprint.definition().spec().getState().getSchema(),
                "--target-type", blueprint.definition().spec().getTarget().getType().wireName());
        int budget = blueprint.definition().spec().getLane().getMaxPodFailures();
        List<String> laneCommand = LaneCommandLine.lane(blueprint.definition().spec().getTarget().getType());
        Consumer<String> log = line -> System.err.println("backfill: " + line);
        try (LocalLaneLauncher launcher = new LocalLaneLauncher(laneCommand, laneEnv, laneArgs, logs, budget, log,
                LaneClassArchive.forThisJvm(LaneCommandLine.userOptions(), System.getenv(), log))) {
            // Ctrl-C or SIGTERM: lanes are killed as groups too, not left running without their driver.
            Thread killLanes = new Thread(launcher::close, "kill-lanes-on-exit");
            Runtime.getRuntime().addShutdownHook(killLanes);
            System.err.println("backfill: campaign " + blueprint.definition().name() + " run key " + runKey + ", lane logs in " + logs);
            // stdout carries only the evidence JSON (or, under bench, another report), so `| jq` reads it whole.
            try (LocalDriver driver = new LocalDriver(blueprint,
                    () -> CampaignRuntime.open(blueprint, source::open, target::open, timings, "backfill-driver"), timings,
                    HealingTimings.fromEnvironment(System.getenv()), launcher,
                    ProgressDisplay.forStderr(),
                    line -> System.err.println("backfill: " + line), driverWait)) {
                int code = driver.run(resume, skipPreflightBy);
                if (report == OutputFormat.json) {
                    System.out.println(Evidence.json(blueprint, driver.session().ledger(), driver.refusal(), driver.nextAction()));
                } else if (report == OutputFormat.text) {
                    System.out.println(Evidence.text(blueprint, driver.session().ledger(), driver.nextAction()));
                }
                Runtime.getRuntime().removeShutdownHook(killLanes);
                return code;
            }
        }
    }
}

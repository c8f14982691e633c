package io.dpone.backfill.lane;

import io.dpone.backfill.connect.CampaignConnections;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.SourceType;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.heal.HealingTimings;
import io.dpone.backfill.core.lane.LaneExit;
import io.dpone.backfill.wiring.EnvironmentFaultPoints;
import io.dpone.backfill.wiring.HealingLane;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * {@code backfill lane}: one lane, what a pod runs. Reads its plan from the ledger; connection settings come only
 * from the environment (BACKFILL_SOURCE_* and BACKFILL_TARGET_*), never from arguments that `ps` would show.
 */
@Command(name = "lane", mixinStandardHelpOptions = true,
        description = {"Run one lane of a planned campaign until no chunk is left or a stop is requested.",
                "Exit codes: 0 done or stopped, 3 schema drift (the engine blocks the campaign), 1 failure."})
public final class LaneCommand implements Callable<Integer> {
    @Option(names = "--run-key", required = true, description = "The campaign's run key (from `backfill plan`).")
    String runKey;

    @Option(names = "--lane", required = true, description = "Lane index, 0-based.")
    int lane;

    @Option(names = "--state-schema", required = true, description = "spec.state.schema: where the ledger lives.")
    String stateSchema;

    @Option(names = "--target-type", required = true, description = "spec.target.type (mssql or postgres).")
    String targetType;

    // Optional while every campaign reads the one source type there is, so launchers need not pass it yet.
    @Option(names = "--source-type", defaultValue = "postgres", description = "spec.source.type (default: ${DEFAULT-VALUE}).")
    String sourceType;

    @Override
    public Integer call() throws Exception {
        TargetType type = TargetType.fromWireName(targetType).orElseThrow(() -> new IllegalArgumentException(
                "--target-type must be one of " + TargetType.wireNames() + ", got " + targetType));
        SourceType from = SourceType.fromWireName(sourceType).orElseThrow(() -> new IllegalArgumentException(
                "--source-type must be one of " + SourceType.wireNames() + ", got " + sourceType));
        ConnectionSettings source = CampaignConnections.resolve(CampaignConnections.SOURCE, "source", List.of(), System.getenv(),
                Connectors.source(from).endpoint());
        ConnectionSettings target = CampaignConnections.resolve(CampaignConnections.TARGET, "target", List.of(), System.getenv(),
                Connectors.target(type).endpoint());
        String owner = "lane-" + lane + "@" + HostName.local() + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 8);
        EngineTimings timings = EngineTimings.fromEnvironment(System.getenv());
        LaneHeapWatch heap = LaneHeapWatch.startIfRequested();
        // Lost connections heal inside the lane (ADR 0020): the pod or process only ends when the outage outlasts its budget.
        HealingLane healingLane = new HealingLane(from, type, source::open, target::open, runKey, lane, owner, stateSchema, timings,
                HealingTimings.fromEnvironment(System.getenv()), EnvironmentFaultPoints.fromEnvironment(),
                line -> System.err.println(LocalTime.now().truncatedTo(ChronoUnit.MILLIS) + " lane " + lane + ": " + line));
        LaneExit exit = healingLane.run(DriverWatch.fromEnvironment());
        System.err.println("lane " + lane + ": exiting (" + exit + ")");
        if (heap != null) {
            heap.writeReport(lane);
        }
        return exit.exitCode();
    }
}

package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.CampaignOptions;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.ThrottleSpec;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.ThrottleSetting;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.sql.Connection;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code backfill throttle}: changes the rate ceiling of a running local campaign (issue 28). Writes the ledger's
 * ceiling, takes no lease: the lanes read it within a second. The run key does not depend on the throttle, so the
 * campaign file names the run whatever its own {@code throttle} says; that one applies again at the next run or
 * resume. A campaign the operator runs takes its ceiling from {@code spec.throttle} at every pass:
 * {@code kubectl backfill throttle} changes that.
 */
@Command(name = "throttle", mixinStandardHelpOptions = true,
        description = {"Change the rate ceiling of a running campaign: its lanes read the new ceiling within a second.",
                "Options not given keep their current value; --off removes the ceiling; --lanes N lets N lanes load"
                        + " (lanes past it finish their chunk and stop; the running `backfill run` starts lanes again"
                        + " when it is raised).",
                "Exit 0: the ceiling is recorded; 1: the campaign was never started; 2: a bad value."})
public final class ThrottleCommand implements Callable<Integer> {
    @Mixin
    CampaignOptions campaign;

    @Option(names = "--rows-per-second", paramLabel = "N", description = "Rows a second the lanes read together at most.")
    Long rowsPerSecond;

    @Option(names = "--bytes-per-second", paramLabel = "N", description = "Row bytes a second the lanes read together at most.")
    Long bytesPerSecond;

    @Option(names = "--off", description = "No ceiling.")
    boolean off;

    @Option(names = "--lanes", paramLabel = "N", description = "Lanes that load now, 1 to the file's parallelWorkers.")
    Integer lanes;

    @Override
    public Integer call() throws Exception {
        Optional<String> problem = problem(rowsPerSecond, bytesPerSecond, off, lanes);
        if (problem.isPresent()) {
            System.err.println("backfill: " + problem.get());
            return ExitCodes.INVALID;
        }
        CampaignBlueprint blueprint = campaign.blueprint();
        BackfillCampaignSpec spec = blueprint.definition().spec();
        if (lanes != null && lanes > spec.getParallelWorkers()) {
            System.err.println("backfill: spec.throttle.lanes (--lanes) must not exceed spec.parallelWorkers ("
                    + spec.getParallelWorkers() + "), got " + lanes);
            return ExitCodes.INVALID;
        }
        String runKey = blueprint.identity().runKey();
        try (Connection state = campaign.target(spec).open("backfill-throttle")) {
            LedgerStore ledger = Connectors.target(spec.getTarget().getType()).ledger(state, spec.getState().getSchema());
            if (ledger.peek(runKey).isEmpty()) {
                System.err.println("backfill: campaign " + spec.getBackfillId() + " (run key " + runKey + ") was never"
                        + " started: nothing to throttle (set spec.throttle in the file and run it)");
                return ExitCodes.FAILURE;
            }
            ledger.ensureSchema(); // a ledger written by an older build gains the throttle columns
            ThrottleSetting now = next(ledger.throttle(runKey), spec.getParallelWorkers(), rowsPerSecond, bytesPerSecond, off,
                    lanes);
            ledger.recordThrottle(runKey, now);
            System.out.println("ceiling now " + now.describe() + " (run key " + runKey + "); running lanes follow within"
                    + " a second. The file's spec.throttle applies again at the next run or resume.");
            return ExitCodes.OK;
        }
    }

    /** What is wrong with the options, naming the spec field each sets; empty when nothing is. */
    public static Optional<String> problem(Long rows, Long bytes, boolean off, Integer lanes) {
        if (off && (rows != null || bytes != null)) {
            return Optional.of("--off removes the ceiling: give it alone, or --rows-per-second / --bytes-per-second alone");
        }
        if (!off && rows == null && bytes == null && lanes == null) {
            return Optional.of("give --rows-per-second N, --bytes-per-second N, --lanes N or --off");
        }
        if (lanes != null && (lanes < 1 || lanes > io.dpone.backfill.core.campaign.BackfillCampaignSpec.MAX_PARALLEL_WORKERS)) {
            return Optional.of("spec.throttle.lanes (--lanes) must be between 1 and "
                    + io.dpone.backfill.core.campaign.BackfillCampaignSpec.MAX_PARALLEL_WORKERS + ", got " + lanes);
        }
        Optional<String> r = range(rows, "spec.throttle.rowsPerSecond (--rows-per-second)");
        return r.isPresent() ? r : range(bytes, "spec.throttle.bytesPerSecond (--bytes-per-second)");
    }

    private static Optional<String> range(Long value, String field) {
        return value != null && (value < 1 || value > ThrottleSpec.MAX_PER_SECOND)
                ? Optional.of(field + " must be between 1 and " + ThrottleSpec.MAX_PER_SECOND + ", got " + value)
                : Optional.empty();
    }

    /**
     * The ceiling after this command: the parts given replace the recorded ones, the others stay; the lane count is
     * {@code --lanes}, else the recorded one (the driver's), or the file's parallelWorkers before any was recorded.
     */
    static ThrottleSetting next(ThrottleSetting recorded, int parallelWorkers, Long rows, Long bytes, boolean off,
                                Integer lanesWanted) {
        int lanes = lanesWanted != null ? lanesWanted : Math.min(parallelWorkers, recorded.lanes());
        if (off) {
            return new ThrottleSetting(0, 0, lanes);
        }
        return new ThrottleSetting(rows != null ? rows : recorded.rowsPerSecond(),
                bytes != null ? bytes : recorded.bytesPerSecond(), lanes);
    }
}

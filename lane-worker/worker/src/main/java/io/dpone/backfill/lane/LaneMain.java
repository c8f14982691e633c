package io.dpone.backfill.lane;

import io.dpone.backfill.redaction.ScrubbingOutputStream;
import picocli.CommandLine;

import java.util.Arrays;

/**
 * The lane image's entry point: {@code backfill lane ...} and nothing else. The lane jar holds only what a lane runs
 * (the engine, the adapters, the drivers); the CLI's other commands, the demo's PostgreSQL binaries, the kubectl
 * plugin's Kubernetes model and the bench are not in it. It also serves the CLI's own {@code backfill lane}, so a lane
 * starts the same lean way wherever it runs (ADR 0026).
 */
public final class LaneMain {
    static final String LANE = "lane";

    private LaneMain() {
    }

    public static void main(String[] args) {
        // A lane's output is its pod's log or its local log file: scrubbed of credentials like the CLI's (ADR 0043).
        ScrubbingOutputStream.installOnStandardStreams();
        if (args.length == 0 || !LANE.equals(args[0])) {
            System.err.println("error: this is the lane jar: it runs `backfill lane --run-key ... --lane N ...` only;"
                    + " every other command is in the backfill CLI");
            System.exit(ExitCodes.INVALID);
        }
        System.exit(commandLine().execute(Arrays.copyOfRange(args, 1, args.length)));
    }

    /** {@code backfill lane} alone, with the CLI's parsing, usage, exit codes and failure reporting. */
    public static CommandLine commandLine() {
        CommandLine lane = withFailureHandling(new CommandLine(new LaneCommand()));
        lane.setCommandName("backfill " + LANE);
        return lane;
    }

    /** The CLI's way of reporting failures (one line, exit codes) on any command line. */
    public static CommandLine withFailureHandling(CommandLine commandLine) {
        return commandLine.setExitCodeExceptionMapper(ExitCodes::forException)
                .setExecutionExceptionHandler(new FailureReporter());
    }
}

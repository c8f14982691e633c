package io.dpone.backfill.cli;

import io.dpone.backfill.cli.kubectl.KubectlCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.Arrays;

/** The {@code backfill} executable. Exit codes: 0 success, 1 runtime failure, 2 invalid input. */
@Command(name = "backfill", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Resumable, shadow-published initial loads from PostgreSQL into SQL Server or PostgreSQL.",
        subcommands = {PlanCommand.class, RunCommand.class, ResumeCommand.class, StatusCommand.class, VerifyCommand.class,
                RollbackCommand.class, DoctorCommand.class, LaneCommand.class, DemoCommand.class, BenchCommand.class,
                CertifyCommand.class, KubectlCommand.class})
public final class BackfillCli implements Runnable {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILURE = 1;
    public static final int EXIT_INVALID = 2;
    private static final String LANE = "lane";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    public static CommandLine commandLine() {
        return withFailureHandling(new CommandLine(new BackfillCli()));
    }

    /** The CLI's way of reporting failures (one line, exit codes) on any command line, e.g. the kubectl plugin's in tests. */
    public static CommandLine withFailureHandling(CommandLine commandLine) {
        return commandLine.setExitCodeExceptionMapper(ExitCodes::forException)
                .setExecutionExceptionHandler(new FailureReporter());
    }

    public static void main(String[] args) {
        if (args.length > 0 && LANE.equals(args[0])) {
            System.exit(laneCommandLine().execute(Arrays.copyOfRange(args, 1, args.length)));
        }
        System.exit(commandLine().execute(args));
    }

    /**
     * {@code backfill lane} alone: every lane start (each process, each pod) would otherwise build the whole command
     * tree, which loads every command's classes (certify, verify, kubectl...): 0.6 s more before a lane reached its
     * own work, with four lanes on two cores (ADR 0026). Same parsing, usage, exit codes and failure reporting.
     */
    static CommandLine laneCommandLine() {
        CommandLine lane = withFailureHandling(new CommandLine(new LaneCommand()));
        lane.setCommandName("backfill " + LANE);
        return lane;
    }
}

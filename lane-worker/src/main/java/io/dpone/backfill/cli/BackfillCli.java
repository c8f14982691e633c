package io.dpone.backfill.cli;

import io.dpone.backfill.cli.kubectl.KubectlCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

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
        System.exit(commandLine().execute(args));
    }
}

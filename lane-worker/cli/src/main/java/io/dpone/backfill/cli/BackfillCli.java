package io.dpone.backfill.cli;

import io.dpone.backfill.cli.demo.DemoCommand;
import io.dpone.backfill.cli.kubectl.KubectlCommand;
import io.dpone.backfill.cli.plan.DoctorCommand;
import io.dpone.backfill.cli.plan.GenerateCommand;
import io.dpone.backfill.cli.plan.PlanCommand;
import io.dpone.backfill.cli.run.ResumeCommand;
import io.dpone.backfill.cli.run.PublishCommand;
import io.dpone.backfill.cli.run.ThrottleCommand;
import io.dpone.backfill.cli.run.RollbackCommand;
import io.dpone.backfill.cli.run.ReconcileCommand;
import io.dpone.backfill.cli.run.RunCommand;
import io.dpone.backfill.cli.status.StatusCommand;
import io.dpone.backfill.cli.verify.VerifyCommand;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.lane.LaneCommand;
import io.dpone.backfill.lane.LaneMain;
import io.dpone.backfill.redaction.ScrubbingOutputStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.Arrays;

/** The {@code backfill} executable. Its exit codes, and every command's, are {@link ExitCodes}. */
@Command(name = "backfill", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Resumable, shadow-published initial loads from PostgreSQL into SQL Server or PostgreSQL.",
        subcommands = {PlanCommand.class, RunCommand.class, ResumeCommand.class, StatusCommand.class, VerifyCommand.class,
                RollbackCommand.class, ReconcileCommand.class, PublishCommand.class, ThrottleCommand.class, DoctorCommand.class, GenerateCommand.class, LaneCommand.class, DemoCommand.class, BenchCommand.class,
                CertifyCommand.class, KubectlCommand.class},
        exitCodeListHeading = "%nExit codes (every command; each code means one thing):%n",
        exitCodeList = {
                "0:Done: the command did what it was asked.",
                "1:A failure the message names; rerun or resume once it is fixed.",
                "2:Invalid input, every problem named with its field; nothing was touched.",
                "3:The campaign is Blocked; read the reason (a resume will not help).",
                "4:The campaign is Recoverable; fix lastError's cause, then one resume.",
                "5:Another driver holds the campaign's lease; nothing was changed.",
                "6:Pre-flight found errors (doctor, or run refusing before any change).",
                "7:differences remain: verify found rows that differ from the source; reconcile (or run with"
                        + " spec.reconcile) left keys waiting for a decision.",
                "8:certify ran and a scenario did not pass.",
                "9:The campaign validated and waits for the other members of its publication group; run theirs."})
public final class BackfillCli implements Runnable {
    private static final String LANE = "lane";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    public static CommandLine commandLine() {
        return LaneMain.withFailureHandling(new CommandLine(new BackfillCli()));
    }

    public static void main(String[] args) {
        // Before anything holds the streams: whatever this process prints is scrubbed of credentials (ADR 0043).
        ScrubbingOutputStream.installOnStandardStreams();
        if (args.length > 0 && LANE.equals(args[0])) {
            // `backfill lane` alone: every lane start (each process, each pod) would otherwise build the whole command
            // tree, which loads every command's classes (certify, verify, kubectl...): 0.6 s more before a lane
            // reached its own work, with four lanes on two cores (ADR 0026). The lane jar starts the same way.
            LaneMain.main(args);
        }
        System.exit(commandLine().execute(args));
    }
}

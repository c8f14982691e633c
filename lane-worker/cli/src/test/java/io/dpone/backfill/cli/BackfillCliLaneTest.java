package io.dpone.backfill.cli;

import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.lane.LaneMain;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code backfill lane} started on its own command line behaves as the lane command of the whole tree. */
class BackfillCliLaneTest {
    @Test
    void theLanesOwnCommandLinePrintsTheSameUsageAsTheWholeTree() {
        CommandLine tree = BackfillCli.commandLine().getSubcommands().get("lane");

        assertThat(LaneMain.commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF))
                .startsWith("Usage: backfill lane ")
                .isEqualTo(tree.getUsageMessage(CommandLine.Help.Ansi.OFF));
    }

    @Test
    void aMissingOptionExitsAsInvalidInputNamingTheOptionsOnBothCommandLines() {
        String[] arguments = {"--run-key", "rk-1", "--lane", "0"};

        Outcome alone = run(LaneMain.commandLine(), arguments);
        String[] withCommand = new String[arguments.length + 1];
        withCommand[0] = "lane";
        System.arraycopy(arguments, 0, withCommand, 1, arguments.length);
        Outcome tree = run(BackfillCli.commandLine(), withCommand);

        assertThat(alone.code()).isEqualTo(ExitCodes.INVALID).isEqualTo(tree.code());
        assertThat(alone.err()).contains("--state-schema", "--target-type").isEqualTo(tree.err());
    }

    @Test
    void aFailureIsReportedOnOneLineWithTheLanesFailureExitCode() {
        Outcome alone = run(LaneMain.commandLine(),
                "--run-key", "rk-1", "--lane", "0", "--state-schema", "backfill_state", "--target-type", "oracle");

        assertThat(alone.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(alone.err()).isEqualTo("error: --target-type must be one of [mssql, postgres], got oracle"
                + System.lineSeparator());
    }

    private record Outcome(int code, String err) {
    }

    private static Outcome run(CommandLine commandLine, String... arguments) {
        StringWriter err = new StringWriter();
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute(arguments);
        return new Outcome(code, err.toString());
    }
}

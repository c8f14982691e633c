package io.dpone.backfill.cli;

import io.dpone.backfill.testsupport.RepositoryRoot;
import io.dpone.backfill.lane.ExitCodes;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** One exit code table: each code means one thing across commands, and `--help` and the README list every one. */
class ExitCodeTableTest {

    @Test
    void everyCodeOfTheTableMeansOneThing() throws IllegalAccessException {
        Map<Integer, String> codes = table();
        assertThat(codes).hasSize(10);
        assertThat(codes.keySet()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    @Test
    void backfillHelpListsEveryCodeOfTheTable() throws IllegalAccessException {
        Map<String, String> listed = BackfillCli.commandLine().getCommandSpec().usageMessage().exitCodeList();
        assertThat(listed.keySet()).containsExactlyElementsOf(table().keySet().stream().map(String::valueOf).toList());
        String help = BackfillCli.commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertThat(help).contains("Exit codes").contains("8   certify ran and a scenario did not pass.");
    }

    @Test
    void theReadmeTableListsEveryCode() throws IOException, IllegalAccessException {
        String readme = Files.readString(RepositoryRoot.resolve("README.md"));
        int table = readme.indexOf("## Exit codes");
        assertThat(table).as("README section \"Exit codes\"").isPositive();
        String section = readme.substring(table, readme.indexOf("\n## ", table + 1));
        for (int code : table().keySet()) {
            assertThat(section).as("README exit code " + code).contains("| `" + code + "` |");
        }
    }

    @Test
    void aLaneThatFindsDriftExitsWithTheBlockedCode() {
        // The lane stops because the engine blocks the campaign on drift: the same meaning as a driver's Blocked.
        assertThat(io.dpone.backfill.core.lane.LaneExit.DRIFT.exitCode()).isEqualTo(ExitCodes.BLOCKED);
        assertThat(io.dpone.backfill.core.lane.LaneExit.NOTHING_LEFT.exitCode()).isEqualTo(ExitCodes.OK);
    }

    private static Map<Integer, String> table() throws IllegalAccessException {
        Map<Integer, String> codes = new TreeMap<>();
        for (Field field : ExitCodes.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
                String before = codes.put(field.getInt(null), field.getName());
                assertThat(before).as("exit code " + field.getInt(null) + " means " + before + " and " + field.getName())
                        .isNull();
            }
        }
        return codes;
    }
}

package io.dpone.backfill.cli;

import io.dpone.backfill.lane.LaneMain;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code backfill --help} lists every command with a whole sentence. picocli's command list shows only the first
 * element of a command's {@code description} (remkop/picocli, src/main/java/picocli/CommandLine.java,
 * {@code Help.commandList()}: "the first line of their header or (if absent) description", {@code header()[0]} else
 * {@code description()[0]}), and a command's own help prints each element as rows of its own ({@code Help.join}), as
 * the option renderer does for an option's elements. So every element must be a whole sentence: one cut
 * mid-sentence shows as a line that stops ("committed chunks are never").
 */
class HelpTextTest {
    @Test
    void everyCommandListsItselfWithAWholeSentence() {
        List<String> cut = new ArrayList<>();
        for (CommandSpec command : commands(BackfillCli.commandLine().getCommandSpec())) {
            String[] description = command.usageMessage().description();
            if (description.length == 0 || !wholeSentence(description[0])) {
                cut.add(command.qualifiedName() + ": " + (description.length == 0 ? "(no description)" : description[0]));
            }
        }
        assertThat(cut).as("commands whose line in --help is not a whole sentence").isEmpty();
    }

    @Test
    void everyLineOfEveryCommandsHelpIsAWholeSentence() {
        List<String> cut = new ArrayList<>();
        for (CommandSpec command : commands(BackfillCli.commandLine().getCommandSpec())) {
            for (String line : command.usageMessage().description()) {
                if (!wholeSentence(line)) {
                    cut.add(command.qualifiedName() + ": " + line);
                }
            }
            for (ArgSpec arg : command.args()) {
                for (String line : arg.description()) {
                    if (!wholeSentence(line)) {
                        cut.add(command.qualifiedName() + " " + arg.paramLabel() + ": " + line);
                    }
                }
            }
        }
        assertThat(cut).as("help lines cut mid-sentence").isEmpty();
    }

    @Test
    void theLaneCommandLineAloneHasTheSameWholeSentence() {
        String[] description = LaneMain.commandLine().getCommandSpec().usageMessage().description();
        assertThat(description).isNotEmpty().allMatch(HelpTextTest::wholeSentence);
    }

    /** Ends as a sentence: with a period (or a closing parenthesis or quote after one). */
    static boolean wholeSentence(String line) {
        String text = line.strip();
        return text.endsWith(".") || text.endsWith(".)") || text.endsWith(".\"");
    }

    private static List<CommandSpec> commands(CommandSpec root) {
        List<CommandSpec> all = new ArrayList<>();
        for (CommandLine sub : root.subcommands().values()) {
            if (!all.contains(sub.getCommandSpec())) {
                all.add(sub.getCommandSpec());
                all.addAll(commands(sub.getCommandSpec()));
            }
        }
        return all;
    }
}

package io.dpone.backfill.cli;

import io.dpone.backfill.testsupport.RepositoryRoot;
import io.dpone.backfill.lane.ExitCodes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 40: the docs a newcomer reads name every command the CLI has and every exit code `run` returns, so they
 * cannot fall behind the CLI again (a README list without `generate`, `publish` and `throttle`; a runbook `run`
 * table without 9; a certify section saying 7 where the CLI says 8).
 */
class DocumentedCommandsTest {
    /** Commands a user does not type against a campaign file: the lane (pods run it), the plugin, the demo, the bench. */
    private static final Set<String> NOT_CAMPAIGN_COMMANDS = Set.of("lane", "kubectl", "demo", "bench");

    @Test
    void theReadmesCommandListNamesEveryCampaignCommandOfTheCli() throws IOException {
        String section = section(Files.readString(RepositoryRoot.resolve("README.md")), "## Running a campaign without Kubernetes");
        List<String> commands = BackfillCli.commandLine().getSubcommands().keySet().stream()
                .filter(c -> !NOT_CAMPAIGN_COMMANDS.contains(c)).toList();
        assertThat(commands).contains("generate", "publish", "throttle");
        for (String command : commands) {
            assertThat(section).as("README lists ./backfill " + command).containsPattern("(?m)^\\./backfill " + command + " ");
        }
    }

    @Test
    void theRunbooksRunTableListsEveryCodeRunReturns() throws IOException {
        String runbook = Files.readString(RepositoryRoot.resolve("src-docs", "runbook.md"));
        String table = runbook.substring(runbook.indexOf("| exit | meaning | next |"));
        table = table.substring(0, table.indexOf("\n\n"));
        for (int code : List.of(ExitCodes.OK, ExitCodes.FAILURE, ExitCodes.INVALID, ExitCodes.BLOCKED, ExitCodes.RECOVERABLE,
                ExitCodes.LEASE_HELD, ExitCodes.PREFLIGHT_ERRORS, ExitCodes.AWAITING_GROUP)) {
            assertThat(table).as("runbook run exit code " + code).containsPattern("(?m)^\\| " + code + " \\|");
        }
    }

    @Test
    void everyDocSaysCertifyFailsWithItsOwnCode() throws IOException {
        for (Path doc : List.of(RepositoryRoot.resolve("README.md"), RepositoryRoot.resolve("src-docs", "runbook.md"))) {
            String text = Files.readString(doc);
            int at = text.indexOf("Exit 0 when everything passed");
            if (at >= 0) {
                assertThat(text.substring(at, at + 60)).as(doc.toString()).contains(", " + ExitCodes.NOT_CERTIFIED + " when not");
            }
        }
    }

    private static String section(String readme, String heading) {
        int from = readme.indexOf(heading);
        assertThat(from).as("README section " + heading).isNotNegative();
        int to = readme.indexOf("\n## ", from + heading.length());
        return readme.substring(from, to < 0 ? readme.length() : to);
    }
}

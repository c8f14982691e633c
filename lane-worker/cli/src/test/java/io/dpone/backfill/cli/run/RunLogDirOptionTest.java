package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.BackfillCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** An unsafe --log-dir is bad input: refused with exit 2, naming the option, before any connection is tried. */
class RunLogDirOptionTest {
    @TempDir
    Path dir;

    @Test
    void runRefusesALogDirectoryThatIsALinkWithExitTwoBeforeConnecting() throws Exception {
        Path campaign = Files.writeString(dir.resolve("campaign.yaml"), """
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata: {name: items}
                spec:
                  backfillId: items_v1
                  source: {connectionSecretRef: {name: src-db}, table: items}
                  target: {type: postgres, connectionSecretRef: {name: tgt-db}, table: items}
                  uniqueKey: [id]
                  chunk: {column: id, kind: uuid, buckets: 8}
                  parallelWorkers: 1
                """);
        Path link = Files.createSymbolicLink(dir.resolve("lanes"), Files.createDirectory(dir.resolve("elsewhere")));
        CommandLine cli = BackfillCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));

        // No --secrets and no BACKFILL_SOURCE_* variables: a connection attempt would fail with exit 1 instead.
        int code = cli.execute("run", campaign.toString(), "--log-dir", link.toString());

        assertThat(code).as(err.toString()).isEqualTo(2);
        assertThat(err.toString()).contains("--log-dir " + link).contains("symbolic link");
    }
}

package io.dpone.backfill.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kubectl plugin as the README installs it: a symlink named {@code kubectl-backfill} on PATH pointing at
 * {@code operator/kubectl-plugin/kubectl-backfill}, which finds the repository through the link and runs
 * {@code backfill kubectl}. Moving the script (issue 37) must not break the one-line install.
 */
class KubectlPluginScriptIT {
    static final Path SCRIPT = BackfillProcess.REPO.resolve("operator/kubectl-plugin/kubectl-backfill");

    @Test
    void theScriptLinkedFromAnotherFolderRunsTheCliKubectlCommands(@TempDir Path bin) throws IOException, InterruptedException {
        Path link = Files.createSymbolicLink(bin.resolve("kubectl-backfill"), SCRIPT);
        ProcessBuilder pb = new ProcessBuilder(link.toString(), "--help").directory(bin.toFile()).redirectErrorStream(true);
        // The same java as this JVM, first on PATH, as a user's shell would have one.
        pb.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).as(output).isTrue();

        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).contains("status", "suspend", "throttle", "rollback");
    }
}

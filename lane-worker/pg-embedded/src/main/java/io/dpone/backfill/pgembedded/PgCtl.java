package io.dpone.backfill.pgembedded;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The three PostgreSQL tool invocations we need, run through {@link PgProcessRunner}. */
final class PgCtl {
    /** Our own process timeout exceeds the tool's own -t wait, so the tool reports first. */
    private static final Duration TOOL_SLACK = Duration.ofSeconds(15);

    private final Path binDir;
    private final PgProcessRunner runner;

    PgCtl(Path binDir, PgProcessRunner runner) {
        this.binDir = binDir;
        this.runner = runner;
    }

    Path binDir() {
        return binDir;
    }

    PgProcessRunner runner() {
        return runner;
    }

    PgProcessRunner.Result initdb(Path dataDir, Path workDir, Path output, Duration timeout) throws IOException {
        return runner.run(List.of(binDir.resolve("initdb").toString(),
                "-D", dataDir.toString(),
                "-U", "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                // No fsync of a throwaway cluster: saves seconds per start.
                "--no-sync",
                "--no-instructions"), workDir, output, timeout);
    }

    PgProcessRunner.Result start(Path dataDir, Path serverLog, int port, Path workDir, Path output, Duration timeout)
            throws IOException {
        return runner.run(List.of(binDir.resolve("pg_ctl").toString(),
                "-D", dataDir.toString(),
                "-l", serverLog.toString(),
                // The port goes on the command line (numeric, no quoting issues) so a retry needs no config edit.
                "-o", "-p " + port,
                "-w", "-t", Long.toString(Math.max(1, timeout.toSeconds())),
                "start"), workDir, output, timeout.plus(TOOL_SLACK));
    }

    PgProcessRunner.Result stop(Path dataDir, String mode, Path workDir, Path output, Duration timeout)
            throws IOException {
        return runner.run(List.of(binDir.resolve("pg_ctl").toString(),
                "-D", dataDir.toString(),
                "-m", mode,
                "-w", "-t", Long.toString(Math.max(1, timeout.toSeconds())),
                "stop"), workDir, output, timeout.plus(TOOL_SLACK));
    }
}

package io.dpone.backfill.pgembedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Finds a server's postmaster process and makes sure it ends: pg_ctl first, SIGKILL as the fallback. */
final class Postmaster {
    static final String PID_FILE = "postmaster.pid";
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);
    /** After pg_ctl reported (success or not), how long the postmaster may take to disappear before SIGKILL. */
    private static final Duration EXIT_GRACE = Duration.ofSeconds(5);

    private Postmaster() {
    }

    /** The postmaster recorded in {@code dataDir/postmaster.pid}, if that process is alive and is a postgres. */
    static Optional<ProcessHandle> fromPidFile(Path dataDir) {
        try {
            List<String> lines = Files.readAllLines(dataDir.resolve(PID_FILE), StandardCharsets.UTF_8);
            if (lines.isEmpty()) {
                return Optional.empty();
            }
            long pid = Long.parseLong(lines.get(0).trim());
            return ProcessHandle.of(pid).filter(Processes::isRunning).filter(Postmaster::looksLikePostgres);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Guards against signalling an unrelated process that reused a stale pid (e.g. after a reboot). */
    static boolean looksLikePostgres(ProcessHandle handle) {
        ProcessHandle.Info info = handle.info();
        Optional<String> command = info.command();
        if (command.isPresent()) {
            return command.get().endsWith("/postgres") || command.get().equals("postgres");
        }
        return info.commandLine().map(c -> c.contains("postgres")).orElse(false);
    }

    /**
     * Stops the server of {@code dataDir} with {@code pg_ctl stop -m mode} (waiting at most {@code timeout});
     * if the postmaster is still there shortly after, or {@code ctl} is null, kills it and its children.
     * Returns a description of what went wrong, or empty.
     */
    static Optional<String> shutdown(PgCtl ctl, Path workDir, Path dataDir, String mode, ProcessHandle postmaster,
            Duration timeout) {
        if (postmaster == null || !Processes.isRunning(postmaster)) {
            return Optional.empty();
        }
        List<ProcessHandle> children = postmaster.descendants().toList();
        StringBuilder problems = new StringBuilder();
        if (ctl != null && Files.isDirectory(dataDir)) {
            try {
                PgProcessRunner.Result result = ctl.stop(dataDir, mode, workDir,
                        workDir.resolve("pg_ctl-stop.log"), timeout);
                if (!result.ok()) {
                    problems.append(result.describe()).append('\n');
                }
            } catch (IOException e) {
                problems.append("pg_ctl stop failed: ").append(e.getMessage()).append('\n');
            }
        }
        if (!Processes.awaitExit(postmaster, ctl == null ? Duration.ZERO : EXIT_GRACE)) {
            problems.append("postmaster ").append(postmaster.pid()).append(" still running after pg_ctl stop; killed it\n");
            kill(postmaster, children);
        }
        // Backends normally exit with the postmaster; a straggler must not outlive us.
        for (ProcessHandle child : children) {
            if (Processes.isRunning(child) && !Processes.awaitExit(child, Duration.ofSeconds(2))) {
                child.destroyForcibly();
                Processes.awaitExit(child, KILL_WAIT);
            }
        }
        if (Processes.isRunning(postmaster)) {
            problems.append("postmaster ").append(postmaster.pid()).append(" survived SIGKILL\n");
        }
        return problems.length() == 0 ? Optional.empty() : Optional.of(problems.toString().stripTrailing());
    }

    private static void kill(ProcessHandle postmaster, List<ProcessHandle> children) {
        postmaster.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
        postmaster.descendants().forEach(ProcessHandle::destroyForcibly);
        Processes.awaitExit(postmaster, KILL_WAIT);
    }
}

package io.dpone.backfill.testsupport.mssql;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a command to completion with its output in a file, so a chatty child can never block on a full pipe. */
final class Commands {
    private Commands() {
    }

    /** Throws with the command's output when it fails or outlives {@code timeout}. */
    static void run(List<String> command, Path output, Duration timeout) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(output.getParent().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        // Stray PG* variables from a developer's shell must not steer the server's tools.
        pb.environment().keySet().removeIf(k -> k.startsWith("PG"));
        Process process = pb.start();
        boolean finished;
        try {
            finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IOException("interrupted while running " + command, e);
        }
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IOException("`" + String.join(" ", command) + "` did not finish within " + timeout
                    + "; its output:\n" + read(output));
        }
        if (process.exitValue() != 0) {
            throw new IOException("`" + String.join(" ", command) + "` exited with " + process.exitValue()
                    + "; its output:\n" + read(output));
        }
    }

    static String read(Path output) {
        try {
            String text = Files.readString(output, StandardCharsets.UTF_8);
            return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }
}

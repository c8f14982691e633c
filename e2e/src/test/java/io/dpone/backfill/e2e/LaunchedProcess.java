package io.dpone.backfill.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A `backfill` process started in the background, with its output in a file, and the signals crash tests send it. */
final class LaunchedProcess implements AutoCloseable {
    final Process process;
    final Path output;

    private LaunchedProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    static LaunchedProcess start(Path workDir, Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", BackfillProcess.JAR.toString()));
        command.addAll(List.of(args));
        Path output = Files.createTempFile(workDir, "backfill-", ".log");
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        pb.environment().putAll(env);
        return new LaunchedProcess(pb.start(), output);
    }

    /**
     * Starts {@code backfill args} and SIGKILLs it once {@code committed} counts {@code chunks} committed chunks (its
     * lanes loading), then waits for its exit.
     */
    static void killOnceCommitted(Path workDir, Map<String, String> env, String[] args, Callable<Long> committed, int chunks)
            throws Exception {
        try (LaunchedProcess driver = start(workDir, env, args)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (committed.call() < chunks) {
                if (System.nanoTime() > deadline || !driver.process.isAlive()) {
                    throw new AssertionError("fewer than " + chunks + " chunks committed while it ran:\n" + driver.output());
                }
                Thread.sleep(50);
            }
            driver.signal("KILL");
            driver.awaitExit(Duration.ofSeconds(10));
        }
    }

    String output() throws IOException {
        return Files.readString(output);
    }

    /** Waits for a line matching {@code regex} in the output; returns the first capture group (or the line). */
    String awaitLine(String regex, Duration timeout) throws Exception {
        Pattern p = Pattern.compile(regex);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : output().lines().toList()) {
                Matcher m = p.matcher(line);
                if (m.find()) {
                    return m.groupCount() > 0 ? m.group(1) : line;
                }
            }
            if (!process.isAlive()) {
                throw new AssertionError("process exited (" + process.exitValue() + ") before printing /" + regex + "/:\n" + output());
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no line /" + regex + "/ within " + timeout + ":\n" + output());
    }

    /** Waits until the process froze itself at its fault point (state T in /proc). */
    void awaitStopped(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (state() == 'T') {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("process " + process.pid() + " did not stop at its fault point:\n" + output());
    }

    char state() throws IOException {
        Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
        if (!Files.exists(stat)) {
            return 'X';
        }
        String s = Files.readString(stat);
        return s.charAt(s.lastIndexOf(')') + 2);
    }

    void signal(String signal) throws Exception {
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    int awaitExit(Duration timeout) throws Exception {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("process did not exit within " + timeout + ":\n" + output());
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                signal("CONT");
            } catch (Exception ignored) {
                // Best effort: a stopped process must be continued to die cleanly on some kernels.
            }
            process.destroyForcibly();
        }
    }
}

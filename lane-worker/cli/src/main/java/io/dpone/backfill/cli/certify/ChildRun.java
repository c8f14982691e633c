package io.dpone.backfill.cli.certify;

import io.dpone.backfill.cli.local.LaneCommandLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A `backfill run` or `backfill resume` started by certify as a child process of this same CLI (same Java, same
 * classpath), its output in a file, its lanes' logs in its own directory; and the crash certify gives it: SIGKILL of
 * the driver and of every lane process it started, as a host failure would.
 */
public final class ChildRun implements AutoCloseable {
    private static final Pattern FAULT = Pattern.compile("FAULT (\\S+) chunk=(-?\\d+) pid=(\\d+)");

    /** A fault point reached: which process announced it, where. */
    record Fault(String point, int chunk, long pid, String process, boolean stopped) {
    }

    private final Process process;
    private final Path output;
    private final Path logDir;

    private ChildRun(Process process, Path output, Path logDir) {
        this.process = process;
        this.output = output;
        this.logDir = logDir;
    }

    /** Starts {@code backfill <command> <campaign> --log-dir <dir>/lanes}; {@code env} replaces the fault variables. */
    static ChildRun start(Path dir, String command, Path campaign, Map<String, String> env) throws IOException {
        Path logDir = Files.createDirectories(dir.resolve("lanes"));
        Path output = dir.resolve(command + ".log");
        List<String> line = new ArrayList<>(LaneCommandLine.base());
        line.addAll(List.of(command, campaign.toString(), "--log-dir", logDir.toString(), "--wait-for-driver", "60"));
        ProcessBuilder pb = new ProcessBuilder(line).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        // Only what certify passes: no fault or connection variable of certify's own environment leaks in.
        pb.environment().keySet().removeIf(k -> k.equals("BACKFILL_FAULT") || k.equals("BACKFILL_LANE_FAULT")
                || k.startsWith("BACKFILL_SOURCE_") || k.startsWith("BACKFILL_TARGET_"));
        pb.environment().putAll(env);
        return new ChildRun(pb.start(), output, logDir);
    }

    Process process() {
        return process;
    }

    String output() {
        try {
            return Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read " + output + ": " + e.getMessage() + ")";
        }
    }

    Path outputFile() {
        return output;
    }

    /**
     * Waits for the first FAULT line of {@code point} in the driver's output or a lane's log, then for that process
     * to have stopped itself there; empty when the run ended (or the timeout passed) without reaching it.
     */
    Optional<Fault> awaitFault(String point, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Fault> found = scan(point);
            if (found.isPresent()) {
                Fault f = found.get();
                return Optional.of(new Fault(f.point(), f.chunk(), f.pid(), f.process(), awaitStopped(f.pid(), Duration.ofSeconds(10))));
            }
            if (!process.isAlive()) {
                // The driver is gone; a lane may still have written its line just before.
                return scan(point);
            }
            Thread.sleep(50);
        }
        return Optional.empty();
    }

    private Optional<Fault> scan(String point) throws IOException {
        Optional<Fault> driver = find(output, point, "driver");
        if (driver.isPresent()) {
            return driver;
        }
        try (Stream<Path> logs = Files.list(logDir)) {
            for (Path log : logs.sorted().toList()) {
                Optional<Fault> lane = find(log, point, log.getFileName().toString().replace(".log", ""));
                if (lane.isPresent()) {
                    return lane;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Fault> find(Path file, String point, String process) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            Matcher m = FAULT.matcher(l);
            if (m.find() && m.group(1).equals(point)) {
                return Optional.of(new Fault(point, Integer.parseInt(m.group(2)), Long.parseLong(m.group(3)), process, false));
            }
        }
        return Optional.empty();
    }

    /** Whether the process stopped itself (state T) within {@code timeout}. */
    private static boolean awaitStopped(long pid, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (state(pid) == 'T') {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /** The process state letter from /proc (T: stopped; X: gone). */
    static char state(long pid) {
        try {
            String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return s.charAt(s.lastIndexOf(')') + 2);
        } catch (IOException | RuntimeException e) {
            return 'X';
        }
    }

    /**
     * The crash: SIGKILL of the driver, then of every lane it started (children of the driver, each in its own
     * process group) and of {@code frozen}; waits until all are gone.
     */
    void crash(long frozen) throws Exception {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        ProcessHandle.of(frozen).ifPresent(tree::add);
        kill(process.pid());
        for (ProcessHandle p : tree) {
            kill(p.pid());
        }
        process.waitFor(30, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        for (ProcessHandle p : tree) {
            while (p.isAlive() && state(p.pid()) != 'Z' && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        }
    }

    private static void kill(long pid) throws Exception {
        new ProcessBuilder("kill", "-KILL", Long.toString(pid)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
    }

    /** Waits for the run to exit by itself; -1 when it did not within {@code timeout} (it is then killed). */
    int awaitExit(Duration timeout) throws Exception {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            crash(process.pid());
            return -1;
        }
        return process.exitValue();
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            crash(process.pid());
        }
    }
}

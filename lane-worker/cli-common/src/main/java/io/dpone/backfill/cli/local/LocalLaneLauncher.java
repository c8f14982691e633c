package io.dpone.backfill.cli.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs lanes as local child processes, one process group each, the way the operator runs one pod per lane. A lane
 * that dies is replaced within a failure budget; on stop, lanes get a bounded drain and are then killed as groups.
 */
public final class LocalLaneLauncher implements AutoCloseable {
    private static final long RESTART_BACKOFF_MILLIS = 1000;

    private final List<String> baseCommand;
    private final Map<String, String> environment;
    private final List<String> laneArguments;
    private final LaneLogDirectory logDirectory;
    private final int failureBudget;
    private final Consumer<String> log;
    private final LaneClassArchive classArchive;
    /** The user chose where fatal error reports go (in the lane options or a variable lanes inherit). */
    private final boolean errorFileChosen;
    private final List<Slot> slots = new ArrayList<>();
    private int failures;

    private static final class Slot {
        Process process;
        int starts;
        long lastStartMillis;
    }

    /**
     * @param laneArguments arguments after {@code lane} (run key, state schema, target type); {@code --lane N} is
     *                      added per slot
     * @param logDirectory  where lane output goes: a directory only the running user can write (ADR 0046)
     * @param classArchive  the lanes' class archive (ADR 0028), or null to start them without one
     */
    public LocalLaneLauncher(List<String> baseCommand, Map<String, String> environment, List<String> laneArguments,
                             LaneLogDirectory logDirectory, int failureBudget, Consumer<String> log, LaneClassArchive classArchive) {
        this.classArchive = classArchive;
        this.baseCommand = List.copyOf(baseCommand);
        this.environment = Map.copyOf(environment);
        this.errorFileChosen = LaneCommandLine.optionSetBy(List.of("ErrorFile"), String.join(" ", baseCommand),
                variable -> this.environment.getOrDefault(variable, System.getenv(variable))) != null;
        this.laneArguments = List.copyOf(laneArguments);
        this.logDirectory = logDirectory;
        this.failureBudget = failureBudget;
        this.log = log;
    }

    /** Keeps {@code lanes} lanes running: starts missing ones, replaces failed ones within the budget. */
    public synchronized void ensure(int lanes) throws IOException {
        while (slots.size() < lanes) {
            slots.add(new Slot());
        }
        long now = System.currentTimeMillis();
        for (int i = 0; i < lanes; i++) {
            Slot slot = slots.get(i);
            if (slot.process != null && slot.process.isAlive()) {
                continue;
            }
            if (slot.process != null) {
                int code = slot.process.exitValue();
                slot.process = null;
                if (exited(i, code)) {
                    log.accept("lane " + i + " exited with code " + code + ", put down to the class archive: restarted without"
                            + " it, not counted against the budget; log: " + logFile(i));
                } else if (code != 0) {
                    failures++;
                    log.accept("lane " + i + " exited with code " + code + " (failure " + failures + " of budget " + failureBudget
                            + "); log: " + logFile(i));
                    if (failures > failureBudget) {
                        throw new LaneBudgetExceededException("lane processes failed " + failures + " times (budget "
                                + failureBudget + "); see " + logDirectory);
                    }
                }
            }
            if (now - slot.lastStartMillis < RESTART_BACKOFF_MILLIS) {
                continue;
            }
            start(i, slot);
        }
    }

    private void start(int index, Slot slot) throws IOException {
        List<String> jvmOptions = new ArrayList<>();
        if (!errorFileChosen) {
            // A lane's JVM fatal error report goes beside its log, not into whatever directory the driver runs in.
            jvmOptions.add("-XX:ErrorFile=" + errorFile(index));
        }
        if (classArchive != null) {
            jvmOptions.addAll(classArchive.jvmOptions(index));
        }
        List<String> command = new ArrayList<>(jvmOptions.isEmpty() ? baseCommand
                : LaneCommandLine.withJvmOptions(baseCommand, jvmOptions));
        command.add("lane");
        command.addAll(laneArguments);
        command.add("--lane");
        command.add(Integer.toString(index));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(environment);
        pb.redirectErrorStream(true);
        // Created (0600, no link followed) before the redirect opens it by name; in a directory only this user can
        // write, nothing can be swapped in between.
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(logDirectory.log(logFile(index).getFileName().toString()).toFile()));
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        slot.process = pb.start();
        slot.starts++;
        slot.lastStartMillis = System.currentTimeMillis();
    }

    /**
     * Waits up to {@code max}, returning early once a lane has exited: the driver then steps at once instead of
     * polling (a finished campaign moves on to validation without idle seconds).
     */
    public void awaitLaneExit(java.time.Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline) {
            synchronized (this) {
                if (slots.stream().anyMatch(s -> s.process != null && !s.process.isAlive())) {
                    return;
                }
            }
            Thread.sleep(Math.min(100, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
        }
    }

    public Path logFile(int index) {
        return logDirectory.path().resolve("lane-" + index + ".log");
    }

    /** Where lane {@code index}'s JVM writes its fatal error report ({@code %p}: its process id). */
    public Path errorFile(int index) {
        return logDirectory.path().resolve("lane-" + index + "-hs_err-%p.log");
    }

    public synchronized List<Long> pids() {
        return slots.stream().filter(s -> s.process != null && s.process.isAlive()).map(s -> s.process.pid()).toList();
    }

    public synchronized int failures() {
        return failures;
    }

    /** Lanes see the stop request and finish their current chunk; whoever is still running after the drain is killed. */
    public synchronized void stop(Duration drain) {
        long deadline = System.nanoTime() + drain.toNanos();
        for (Slot slot : slots) {
            if (slot.process == null) {
                continue;
            }
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                if (!slot.process.waitFor(left, java.util.concurrent.TimeUnit.NANOSECONDS)) {
                    ProcessGroups.kill(slot.process, LaneCommandLine.ownProcessGroup());
                } else {
                    exited(slots.indexOf(slot), slot.process.exitValue());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ProcessGroups.kill(slot.process, LaneCommandLine.ownProcessGroup());
            }
        }
    }

    /** Kills every lane group at once: used on driver failure and exit. */
    @Override
    public synchronized void close() {
        for (Slot slot : slots) {
            if (slot.process != null && slot.process.isAlive()) {
                ProcessGroups.kill(slot.process, LaneCommandLine.ownProcessGroup());
            }
        }
        for (Slot slot : slots) {
            if (slot.process != null) {
                try {
                    if (slot.process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                        exited(slots.indexOf(slot), slot.process.exitValue());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** True when the class archive takes the blame for this exit (ADR 0028): not a lane failure. */
    private boolean exited(int index, int code) {
        return classArchive != null && classArchive.laneExited(index, code);
    }
}

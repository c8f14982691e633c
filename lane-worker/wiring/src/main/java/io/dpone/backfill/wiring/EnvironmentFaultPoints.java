package io.dpone.backfill.wiring;

import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;

import java.util.HashSet;
import java.util.Set;

/**
 * Test hook for crash tests, active only when BACKFILL_FAULT is set: {@code point:chunk} (chunk {@code *} for any,
 * several separated by commas). At the first matching point the process announces itself on stderr and stops itself
 * with SIGSTOP, frozen at exactly that point of the protocol: the test then SIGKILLs it (a crash there) or SIGCONTs
 * it (a zombie that wakes up late).
 */
public final class EnvironmentFaultPoints implements FaultPoints {
    private final Set<String> armed = new HashSet<>();

    private EnvironmentFaultPoints(String spec) {
        for (String part : spec.split(",")) {
            if (!part.isBlank()) {
                armed.add(part.trim());
            }
        }
    }

    private static FaultPoints process;

    /**
     * One set per process: a point fires once per process however many sessions it opens (a driver that reconnects
     * opens a new one and must not stop at a point it already passed).
     */
    public static synchronized FaultPoints fromEnvironment() {
        if (process == null) {
            String spec = System.getenv("BACKFILL_FAULT");
            process = spec == null || spec.isBlank() ? FaultPoints.NONE : new EnvironmentFaultPoints(spec);
        }
        return process;
    }

    @Override
    public boolean armed(FaultPoint point) {
        String prefix = point.wireName() + ":";
        synchronized (armed) {
            return armed.stream().anyMatch(a -> a.startsWith(prefix));
        }
    }

    @Override
    public void reached(FaultPoint fault, int chunkId) {
        String point = fault.wireName();
        String exact = point + ":" + chunkId;
        String any = point + ":*";
        boolean hit;
        synchronized (armed) {
            hit = armed.remove(exact) || armed.remove(any);
        }
        if (!hit) {
            return;
        }
        long pid = ProcessHandle.current().pid();
        System.err.println("FAULT " + point + " chunk=" + chunkId + " pid=" + pid);
        System.err.flush();
        try {
            new ProcessBuilder("kill", "-STOP", Long.toString(pid)).inheritIO().start().waitFor();
            awaitOwnStop();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot stop at fault point " + point, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGSTOP's bit in /proc/self/status signal masks (signal 19, bit 18). */
    private static final long SIGSTOP_BIT = 1L << 18;

    /**
     * The helper's SIGSTOP is asynchronous: the kernel wakes one thread to take it, and until that thread runs and
     * starts the group stop, the others are not flagged. Under load this thread could return from {@code waitFor}
     * and run on for milliseconds past its point (seen: a publication committed after "FAULT in-publish"). So it
     * waits while the stop is still pending for the process (ShdPnd), then makes one more system call, on whose
     * return it stops with the others.
     */
    private static void awaitOwnStop() throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (stopPending() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        Thread.sleep(1);
    }

    private static boolean stopPending() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("ShdPnd:")) {
                    return (Long.parseUnsignedLong(line.substring("ShdPnd:".length()).trim(), 16) & SIGSTOP_BIT) != 0;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
        return false;
    }
}

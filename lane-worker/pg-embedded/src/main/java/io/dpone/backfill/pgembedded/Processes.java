package io.dpone.backfill.pgembedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Process liveness that does not mistake a zombie for a running process. */
final class Processes {
    private Processes() {
    }

    /**
     * Alive and not a zombie. The postmaster is orphaned by pg_ctl, so its exit status is collected by pid 1,
     * which in some containers happens late or never; {@link ProcessHandle#isAlive()} counts such a zombie as
     * alive although it holds no port, memory or files any more.
     */
    static boolean isRunning(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + handle.pid() + "/stat"), StandardCharsets.UTF_8);
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException e) {
            return handle.isAlive(); // no /proc, or it exited just now
        }
    }

    /** Polls rather than using onExit(): the postmaster is not our child, and polling is cheap and prompt. */
    static boolean awaitExit(ProcessHandle handle, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (isRunning(handle)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !isRunning(handle);
            }
        }
        return true;
    }
}

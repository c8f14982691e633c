package io.dpone.backfill.lane;

import java.util.function.BooleanSupplier;

/**
 * For lanes started by a local driver (BACKFILL_DRIVER_PID is set): true while that driver process lives. Pods have
 * no such variable; Kubernetes supervises them.
 */
public final class DriverWatch {
    public static final String VARIABLE = "BACKFILL_DRIVER_PID";

    private DriverWatch() {
    }

    public static BooleanSupplier fromEnvironment() {
        String pid = System.getenv(VARIABLE);
        if (pid == null || pid.isBlank()) {
            return () -> true;
        }
        long driver = Long.parseLong(pid.trim());
        return () -> ProcessHandle.of(driver).map(ProcessHandle::isAlive).orElse(false) && !zombie(driver);
    }

    /** A killed driver whose exit nobody collected yet still "is alive" to ProcessHandle; /proc says it is a zombie. */
    private static boolean zombie(long pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }
}

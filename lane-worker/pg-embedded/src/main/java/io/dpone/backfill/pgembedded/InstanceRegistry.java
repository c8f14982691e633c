package io.dpone.backfill.pgembedded;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Instances not yet closed; one JVM shutdown hook closes them all so no server outlives its JVM. */
final class InstanceRegistry {
    private static final long HOOK_JOIN_MILLIS = 60_000;
    private static final Set<EmbeddedPostgres> LIVE = ConcurrentHashMap.newKeySet();
    private static boolean hookInstalled;

    private InstanceRegistry() {
    }

    /** Throws IllegalStateException if the JVM is already shutting down. */
    static synchronized void register(EmbeddedPostgres instance) {
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(InstanceRegistry::closeAll, "dpone-pg-embedded-shutdown"));
            hookInstalled = true;
        }
        LIVE.add(instance);
    }

    static void unregister(EmbeddedPostgres instance) {
        LIVE.remove(instance);
    }

    /** In parallel: a suite that leaked many servers should not stretch JVM exit by seconds per server. */
    private static void closeAll() {
        List<Thread> closers = new ArrayList<>();
        for (EmbeddedPostgres instance : List.copyOf(LIVE)) {
            Thread t = new Thread(() -> {
                try {
                    instance.close();
                } catch (RuntimeException e) {
                    System.err.println("pg-embedded: closing " + instance + " at JVM exit failed: " + e.getMessage());
                }
            }, "dpone-pg-embedded-close-" + instance.port());
            t.start();
            closers.add(t);
        }
        long deadline = System.currentTimeMillis() + HOOK_JOIN_MILLIS;
        for (Thread t : closers) {
            try {
                t.join(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}

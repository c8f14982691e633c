package io.dpone.backfill.pgembedded;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * One lazily started server per JVM for test suites, which isolate by database rather than by server
 * (a database is created in milliseconds, a server in about a second). Stopped by the JVM shutdown hook.
 */
public final class SharedEmbeddedPostgres {
    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9_]{0,39}");
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static EmbeddedPostgres instance;

    private SharedEmbeddedPostgres() {
    }

    /** The shared server, started on first use (and restarted if someone closed it). Do not close it yourself. */
    public static synchronized EmbeddedPostgres get() {
        if (instance == null || instance.isClosed()) {
            instance = EmbeddedPostgres.start();
        }
        return instance;
    }

    /**
     * Creates a new, empty database on the shared server and returns its name: {@code prefix} (lower case
     * letters, digits, underscores, starting with a letter, at most 40 characters) plus a unique suffix.
     */
    public static String freshDatabase(String prefix) {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException(
                    "database prefix must match " + PREFIX.pattern() + " (lower case, so no quoting surprises): " + prefix);
        }
        String name = prefix + "_" + SEQUENCE.incrementAndGet() + "_"
                + Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36 * 36), 36);
        get().createDatabase(name);
        return name;
    }
}

package io.dpone.backfill.pgembedded;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Removes instance directories (and stops their servers) left behind by JVMs that died without running their
 * shutdown hook (SIGKILL, a crashed surefire fork). Directories of live JVMs are never touched.
 */
final class StaleInstanceSweeper {
    static final String INSTANCE_PREFIX = "dpone-pgdata-";
    /** A claimed directory is renamed to this prefix plus the claiming JVM's pid, so only one sweeper reaps it. */
    static final String REAPING_PREFIX = INSTANCE_PREFIX + "reaping-";
    /** An instance directory is briefly without owner file while it is being created. */
    private static final Duration OWNERLESS_GRACE = Duration.ofMinutes(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private static final System.Logger LOG = System.getLogger(StaleInstanceSweeper.class.getName());

    private StaleInstanceSweeper() {
    }

    /** Sweeps {@code baseDir}; returns how many directories were removed. Never throws. */
    static int sweep(Path baseDir) {
        int removed = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(baseDir, INSTANCE_PREFIX + "*")) {
            for (Path dir : dirs) {
                try {
                    if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) && isStale(dir) && reap(dir)) {
                        removed++;
                    }
                } catch (IOException | RuntimeException e) {
                    // Another user's directory, or one that vanished meanwhile: not ours to fix.
                    LOG.log(System.Logger.Level.DEBUG, "skipping " + dir + ": " + e);
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot list " + baseDir + ": " + e);
        }
        return removed;
    }

    private static boolean isStale(Path dir) throws IOException {
        String name = dir.getFileName().toString();
        if (name.startsWith(REAPING_PREFIX)) {
            // Being reaped by the JVM named in it; stale again only if that JVM died mid-way.
            String rest = name.substring(REAPING_PREFIX.length());
            int dash = rest.indexOf('-');
            long pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
            return !new OwnerFile.Owner(pid, 0, null).isAlive();
        }
        Optional<OwnerFile.Owner> owner = OwnerFile.read(dir);
        if (owner.isPresent()) {
            return !owner.get().isAlive();
        }
        FileTime modified = Files.getLastModifiedTime(dir, LinkOption.NOFOLLOW_LINKS);
        return modified.toInstant().isBefore(Instant.now().minus(OWNERLESS_GRACE));
    }

    private static boolean reap(Path dir) throws IOException {
        Path claimed = dir.resolveSibling(REAPING_PREFIX + ProcessHandle.current().pid() + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            Files.move(dir, claimed, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            return false; // another sweeper got there first
        }
        Path dataDir = claimed.resolve(EmbeddedPostgres.DATA_SUBDIR);
        Optional<ProcessHandle> postmaster = Postmaster.fromPidFile(dataDir);
        if (postmaster.isPresent()) {
            Path binDir = OwnerFile.read(claimed).map(OwnerFile.Owner::binDir).orElse(null);
            PgCtl ctl = binDir != null && Files.isExecutable(binDir.resolve("pg_ctl"))
                    ? new PgCtl(binDir, PgProcessRunner.get())
                    : null;
            // Immediate: nobody needs this data, and a crashed run's server should go quickly.
            Postmaster.shutdown(ctl, claimed, dataDir, "immediate", postmaster.get(), STOP_TIMEOUT)
                    .ifPresent(p -> LOG.log(System.Logger.Level.WARNING, "stopping stale server in " + dir + ": " + p));
        }
        FileHelpers.deleteRecursively(claimed);
        LOG.log(System.Logger.Level.INFO, "removed stale embedded PostgreSQL directory " + dir);
        return true;
    }
}

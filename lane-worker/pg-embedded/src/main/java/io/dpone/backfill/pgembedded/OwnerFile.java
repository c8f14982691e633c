package io.dpone.backfill.pgembedded;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

/**
 * Records which JVM owns an instance directory, so a later JVM can tell a leftover from a crashed or killed
 * test run apart from a live one. The JVM start time guards against pid reuse.
 */
final class OwnerFile {
    static final String NAME = "owner.properties";

    /** Start times are compared with this slack: they are derived from clock ticks and the boot time. */
    private static final long START_TOLERANCE_MILLIS = 2_000;

    private OwnerFile() {
    }

    /** {@code startMillis} is 0 when unknown; {@code binDir} may be null when unknown. */
    record Owner(long pid, long startMillis, Path binDir) {
        static Owner currentJvm(Path binDir) {
            ProcessHandle self = ProcessHandle.current();
            return new Owner(self.pid(), self.info().startInstant().map(Instant::toEpochMilli).orElse(0L), binDir);
        }

        /** Errs on the side of "alive": a directory wrongly kept costs disk, one wrongly swept breaks a test. */
        boolean isAlive() {
            Optional<ProcessHandle> handle = ProcessHandle.of(pid);
            if (handle.isEmpty() || !Processes.isRunning(handle.get())) {
                return false;
            }
            if (startMillis == 0) {
                return true;
            }
            Optional<Instant> started = handle.get().info().startInstant();
            return started.isEmpty() || Math.abs(started.get().toEpochMilli() - startMillis) <= START_TOLERANCE_MILLIS;
        }
    }

    static void write(Path instanceDir, Owner owner) throws IOException {
        Properties props = new Properties();
        props.setProperty("pid", Long.toString(owner.pid()));
        props.setProperty("startMillis", Long.toString(owner.startMillis()));
        if (owner.binDir() != null) {
            props.setProperty("bin", owner.binDir().toString());
        }
        // Written beside and renamed, so a sweeper never reads a half-written file.
        Path tmp = instanceDir.resolve(NAME + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            props.store(w, "owner of this embedded PostgreSQL instance (dpone pg-embedded)");
        }
        Files.move(tmp, instanceDir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    static Optional<Owner> read(Path instanceDir) {
        Path file = instanceDir.resolve(NAME);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(r);
            long pid = Long.parseLong(props.getProperty("pid", "").trim());
            long start = Long.parseLong(props.getProperty("startMillis", "0").trim());
            String bin = props.getProperty("bin");
            return Optional.of(new Owner(pid, start, bin == null ? null : Path.of(bin)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}

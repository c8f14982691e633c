package io.dpone.backfill.cli.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A class-data-sharing archive (AppCDS) of the classes a local lane loads, so four lane JVMs starting at once on a
 * small machine map their classes instead of each parsing and verifying them again (ADR 0028).
 *
 * <p>Java 17 makes no such archive by itself, so the first lane one driver starts without an archive for this
 * jar and JVM dumps one when it exits ({@code -XX:ArchiveClassesAtExit}, into a file of this driver's own); the
 * driver moves it into place only when that lane exited cleanly, so a killed lane never leaves half an archive. Every
 * lane started after that maps it ({@code -XX:SharedArchiveFile}). The archive's name is a hash of the JVM and of the
 * class path's files (path, size, time), so a new build or another JDK gets its own; the JVM checks the archive again
 * when it maps it, and runs without it when it does not match. Archives live in the user's cache directory (never a
 * shared temporary one: a JVM runs the classes it maps). Lane options that set class data sharing themselves (for
 * example {@code -Xshare:off} in {@code BACKFILL_LANE_JAVA_OPTS} or {@code JAVA_TOOL_OPTIONS}) turn this off.
 *
 * <p>So do agents and the flight recorder, in the lane options or in the variables every {@code java} reads. With a
 * class file load hook on (a {@code -javaagent} transformer, {@code -XX:StartFlightRecording}), a Java 17 JVM that
 * maps a dynamic archive re-reads each archived class's bytes from its jar as it loads it, finds no bytes for a class
 * held only in a multi-release jar's versioned section (pgjdbc's {@code LazyCleanerImpl} in the lanes' jar), and dies
 * (SIGSEGV in {@code KlassFactory::check_shared_class_file_load_hook}). A hook this cannot see (an agent attached to a
 * running lane) ends in the JVM's fatal-error exit: the first such exit of a lane that mapped the archive stops this
 * driver from mapping it, and does not count against the lanes' failure budget.
 */
public final class LaneClassArchive {
    /** Archives of other builds made longer ago than this are removed when a new one is kept (made again if needed). */
    static final Duration UNUSED = Duration.ofDays(7);
    private static final List<String> OWN_SHARING_OPTIONS = List.of("Xshare", "SharedArchiveFile", "ArchiveClassesAtExit",
            "UseSharedSpaces", "DumpLoadedClassList", "SharedClassListFile");
    /** JVM options that can turn on a class file load hook (agents, the flight recorder). */
    private static final List<String> CLASS_LOAD_HOOKS = List.of("-javaagent", "-agentlib", "-agentpath", "-Xrun",
            "StartFlightRecording", "FlightRecorder");
    /** How a HotSpot JVM ends after a fatal error: abort(), SIGABRT, 128 + 6. */
    static final int JVM_FATAL_ERROR_EXIT = 134;

    private final Path archive;
    private final Path training;
    private final Consumer<String> log;
    private final Set<Integer> mappingLanes = new HashSet<>();
    private Integer trainingLane;
    private boolean mappingFailed;

    LaneClassArchive(Path directory, String key, long driverPid, Consumer<String> log) {
        this.archive = directory.resolve("lane-" + key + ".jsa");
        this.training = directory.resolve("lane-" + key + ".jsa." + driverPid + ".tmp");
        this.log = log;
    }

    /**
     * This driver's archive for lanes of this JVM and class path, in the user's cache directory; null (no archive)
     * when the user's lane options set class data sharing themselves, an agent or the flight recorder may turn on a
     * class file load hook, or no cache directory can be made.
     */
    public static LaneClassArchive forThisJvm(String userOptions, Map<String, String> environment, Consumer<String> log) {
        if (ownSharing(userOptions, environment) != null) {
            return null;
        }
        String hook = LaneCommandLine.optionSetBy(CLASS_LOAD_HOOKS, userOptions, environment::get);
        if (hook != null) {
            log.accept("lanes start without a class archive: " + hookConsequence(hook));
            return null;
        }
        Path directory = cacheDirectory(environment);
        if (directory == null) {
            return null;
        }
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            log.accept("lanes start without a class archive: cannot create " + directory + " (" + e.getMessage() + ")");
            return null;
        }
        return new LaneClassArchive(directory, thisJvmKey(), ProcessHandle.current().pid(), log);
    }

    /**
     * What lanes a driver starts now would do with the archive, for a report: "mapped: PATH", "made by the first
     * lane's clean exit: PATH" (no archive yet), or "off: WHY".
     */
    public static String describe(String userOptions, Map<String, String> environment) {
        String sharing = ownSharing(userOptions, environment);
        if (sharing != null) {
            return "off: the lane options set class data sharing themselves (" + sharing + ")";
        }
        String hook = LaneCommandLine.optionSetBy(CLASS_LOAD_HOOKS, userOptions, environment::get);
        if (hook != null) {
            return "off: " + hookConsequence(hook);
        }
        Path directory = cacheDirectory(environment);
        if (directory == null) {
            return "off: no cache directory (neither XDG_CACHE_HOME nor a home directory)";
        }
        Path archive = directory.resolve("lane-" + thisJvmKey() + ".jsa");
        return (Files.isRegularFile(archive) ? "mapped: " : "made by the first lane's clean exit: ") + archive;
    }

    /**
     * Where the user's options set class data sharing, null when they do not. The variables count too: a JVM with
     * {@code -Xshare:off} from {@code JAVA_TOOL_OPTIONS} refuses to start with {@code -XX:ArchiveClassesAtExit}.
     */
    private static String ownSharing(String userOptions, Map<String, String> environment) {
        return LaneCommandLine.optionSetBy(OWN_SHARING_OPTIONS, userOptions, environment::get);
    }

    private static String hookConsequence(String hook) {
        return hook + " may turn on a class file load hook, which a Java 17 JVM cannot combine with a dynamic class archive";
    }

    private static String thisJvmKey() {
        return key(System.getProperty("java.home"), System.getProperty("java.vm.version"), System.getProperty("java.class.path"));
    }

    /** {@code $XDG_CACHE_HOME/backfill}, else {@code ~/.cache/backfill}; null without either. */
    static Path cacheDirectory(Map<String, String> environment) {
        String xdg = environment.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "backfill");
        }
        String home = System.getProperty("user.home");
        return home == null || home.isBlank() || "?".equals(home) ? null : Path.of(home, ".cache", "backfill");
    }

    /** A hash of the JVM and of every class path entry as a file (path, size, modification time). */
    static String key(String javaHome, String vmVersion, String classPath) {
        StringBuilder identity = new StringBuilder(javaHome).append('\n').append(vmVersion).append('\n');
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            Path file = Path.of(entry).toAbsolutePath();
            identity.append(file).append('\t');
            try {
                identity.append(Files.size(file)).append('\t').append(Files.getLastModifiedTime(file).toMillis());
            } catch (IOException e) {
                identity.append("absent");
            }
            identity.append('\n');
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(identity.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    Path archive() {
        return archive;
    }

    /** JVM options for lane {@code lane}, about to start: map the archive, or make it (one lane at a time), or none. */
    public synchronized List<String> jvmOptions(int lane) {
        if (mappingFailed) {
            return List.of();
        }
        if (Files.isRegularFile(archive)) {
            mappingLanes.add(lane);
            return List.of("-XX:SharedArchiveFile=" + archive);
        }
        if (trainingLane != null) {
            return List.of();
        }
        try {
            Files.deleteIfExists(training);
        } catch (IOException e) {
            return List.of();
        }
        trainingLane = lane;
        return List.of("-XX:ArchiveClassesAtExit=" + training);
    }

    /**
     * Lane {@code lane} has exited with {@code exitCode}: if it was making the archive, keep it or drop it. True when
     * the exit is put down to the archive (a JVM fatal error of a lane started with it mapped): the driver then
     * restarts the lane without counting a failure, and no lane it starts maps the archive again, so this forgives at
     * most one exit per lane.
     */
    public synchronized boolean laneExited(int lane, int exitCode) {
        if (mappingLanes.remove(lane)) {
            if (exitCode == JVM_FATAL_ERROR_EXIT) {
                if (!mappingFailed) {
                    log.accept("lane " + lane + " ended in a JVM fatal error while it mapped the class archive " + archive
                            + "; lanes start without it from now on (set -Xshare:off in BACKFILL_LANE_JAVA_OPTS to never use it)");
                }
                mappingFailed = true;
                return true;
            }
            return false;
        }
        if (trainingLane == null || trainingLane != lane) {
            return false;
        }
        trainingLane = null;
        try {
            if (exitCode == 0 && Files.isRegularFile(training) && Files.size(training) > 0) {
                Files.move(training, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                removeUnused();
            } else {
                Files.deleteIfExists(training);
            }
        } catch (IOException e) {
            log.accept("the lanes' class archive was not kept: " + e.getMessage());
        }
        return false;
    }

    /** Other builds' archives made longer ago than {@link #UNUSED}, and training files of drivers long gone. */
    private void removeUnused() throws IOException {
        FileTime before = FileTime.from(Instant.now().minus(UNUSED));
        try (DirectoryStream<Path> files = Files.newDirectoryStream(archive.getParent(), "lane-*.jsa*")) {
            for (Path file : files) {
                if (!file.equals(archive) && Files.getLastModifiedTime(file).compareTo(before) < 0) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }
}

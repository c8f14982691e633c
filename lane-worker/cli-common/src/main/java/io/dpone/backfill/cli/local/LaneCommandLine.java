package io.dpone.backfill.cli.local;

import io.dpone.backfill.core.campaign.TargetType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The command that starts this same CLI as a child process: same Java, same classpath, main class. */
public final class LaneCommandLine {
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    /** Extra JVM options for lanes (the bench caps their heap); the environment's BACKFILL_LANE_JAVA_OPTS otherwise. */
    public static final String JAVA_OPTS_PROPERTY = "backfill.lane.javaOpts";
    public static final String JAVA_OPTS_VARIABLE = "BACKFILL_LANE_JAVA_OPTS";
    /** Variables the JVM or the {@code java} launcher adds options from, which lanes inherit from the driver. */
    static final List<String> INHERITED_OPTION_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

    private LaneCommandLine() {
    }

    /**
     * {@code setsid java -cp <classpath> io.dpone.backfill.cli.BackfillCli}: setsid makes the child the leader of its
     * own process group, so the driver can kill the lane and anything it started as one group.
     */
    public static List<String> base() {
        return command(List.of());
    }

    /**
     * The command of a local lane loading into {@code target}: {@link #base()} with the lane's JVM defaults
     * ({@link LaneJvmDefaults}) before the user's options, so the user's win.
     */
    public static List<String> lane(TargetType target) {
        return command(LaneJvmDefaults.of(target));
    }

    /** {@code command} (as {@link #lane} built it) with {@code options} added to its JVM options. */
    public static List<String> withJvmOptions(List<String> command, List<String> options) {
        int classPath = command.indexOf("-cp");
        if (classPath < 0) {
            throw new IllegalArgumentException("not a lane command: it has no -cp");
        }
        List<String> with = new ArrayList<>(command.subList(0, classPath));
        with.addAll(options);
        with.addAll(command.subList(classPath, command.size()));
        return with;
    }

    /**
     * Where the first of {@code needles} is set for a lane's JVM: "NEEDLE in the lane options" when {@code options}
     * holds it, "NEEDLE in VARIABLE" when an inherited variable does ({@code variables} reads them); null when nowhere.
     */
    static String optionSetBy(List<String> needles, String options, Function<String, String> variables) {
        String own = firstIn(needles, options);
        if (own != null) {
            return own + " in the lane options";
        }
        for (String variable : INHERITED_OPTION_VARIABLES) {
            String inherited = firstIn(needles, variables.apply(variable));
            if (inherited != null) {
                return inherited + " in " + variable;
            }
        }
        return null;
    }

    private static String firstIn(List<String> needles, String options) {
        return options == null ? null : needles.stream().filter(options::contains).findFirst().orElse(null);
    }

    /** The user's lane JVM options: the system property if set, else BACKFILL_LANE_JAVA_OPTS; null when neither is. */
    public static String userOptions() {
        return System.getProperty(JAVA_OPTS_PROPERTY, System.getenv(JAVA_OPTS_VARIABLE));
    }

    private static List<String> command(List<String> defaults) {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            command.add(SETSID.toString());
        }
        command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(defaults);
        String opts = userOptions();
        if (opts != null && !opts.isBlank()) {
            command.addAll(List.of(opts.trim().split("\\s+")));
        }
        command.add("-cp");
        command.add(absoluteClassPath(System.getProperty("java.class.path"), Path.of("").toAbsolutePath()));
        command.add("io.dpone.backfill.cli.BackfillCli");
        return command;
    }

    /**
     * {@code classPath} with every relative entry resolved against {@code workingDirectory}: {@code java -jar
     * lane-worker/cli/target/backfill.jar} leaves java.class.path relative, and a child started in another directory
     * (certify's scenario runs start in their scratch directory) would not find the main class.
     */
    static String absoluteClassPath(String classPath, Path workingDirectory) {
        if (classPath == null || classPath.isEmpty()) {
            return classPath;
        }
        List<String> entries = new ArrayList<>();
        for (String entry : classPath.split(java.io.File.pathSeparator, -1)) {
            entries.add(entry.isEmpty() ? workingDirectory.toString() : workingDirectory.resolve(entry).normalize().toString());
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    public static boolean ownProcessGroup() {
        return Files.isExecutable(SETSID);
    }
}

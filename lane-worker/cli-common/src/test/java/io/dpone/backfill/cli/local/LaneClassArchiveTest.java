package io.dpone.backfill.cli.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The lanes' class archive (ADR 0028): who makes it, when it is kept, who maps it; and on a real JVM. */
class LaneClassArchiveTest {
    @TempDir
    Path dir;

    private final List<String> logged = new ArrayList<>();

    private LaneClassArchive archive() {
        return new LaneClassArchive(dir, "k1", 4242, logged::add);
    }

    private Path training() {
        return dir.resolve("lane-k1.jsa.4242.tmp");
    }

    @Test
    void theFirstLaneMakesTheArchiveAtExitAndTheLanesStartedAfterItMapIt() throws IOException {
        LaneClassArchive archive = archive();

        assertThat(archive.jvmOptions(0)).containsExactly("-XX:ArchiveClassesAtExit=" + training());
        assertThat(archive.jvmOptions(1)).as("one lane makes it; the others start as before").isEmpty();
        Files.writeString(training(), "dumped by the JVM at exit");
        archive.laneExited(1, 0);
        assertThat(archive.archive()).as("only the lane making it settles it").doesNotExist();

        archive.laneExited(0, 0);

        assertThat(archive.archive()).hasContent("dumped by the JVM at exit");
        assertThat(training()).doesNotExist();
        assertThat(archive.jvmOptions(2)).containsExactly("-XX:SharedArchiveFile=" + archive.archive());
        assertThat(archive().jvmOptions(0)).as("another driver of the same build maps it too")
                .containsExactly("-XX:SharedArchiveFile=" + archive.archive());
    }

    @Test
    void aLaneThatDiesWhileMakingTheArchiveLeavesNoneAndTheNextLaneMakesItAgain() throws IOException {
        LaneClassArchive archive = archive();
        archive.jvmOptions(0);
        Files.writeString(training(), "half an archive");

        archive.laneExited(0, 137);

        assertThat(archive.archive()).doesNotExist();
        assertThat(training()).doesNotExist();
        assertThat(archive.jvmOptions(0)).containsExactly("-XX:ArchiveClassesAtExit=" + training());
        archive.laneExited(0, 0);
        assertThat(archive.archive()).as("a clean exit that dumped nothing keeps nothing").doesNotExist();
    }

    @Test
    void keepingANewArchiveRemovesOtherBuildsArchivesMadeLongAgoOnly() throws IOException {
        Path old = Files.writeString(dir.resolve("lane-old.jsa"), "x");
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(LaneClassArchive.UNUSED).minusSeconds(60)));
        Path recent = Files.writeString(dir.resolve("lane-recent.jsa"), "x");
        LaneClassArchive archive = archive();
        archive.jvmOptions(0);
        Files.writeString(training(), "archive");

        archive.laneExited(0, 0);

        assertThat(old).doesNotExist();
        assertThat(recent).exists();
        assertThat(archive.archive()).exists();
    }

    @Test
    void lanesWhoseOptionsSetClassSharingThemselvesGetNoArchive() {
        Map<String, String> env = Map.of("XDG_CACHE_HOME", dir.toString());

        assertThat(LaneClassArchive.forThisJvm("-Xmx96m -Xshare:off", env, logged::add)).isNull();
        assertThat(LaneClassArchive.forThisJvm("-XX:SharedArchiveFile=/x.jsa", env, logged::add)).isNull();
        assertThat(LaneClassArchive.forThisJvm("-Xmx96m", Map.of("XDG_CACHE_HOME", dir.toString(),
                "JAVA_TOOL_OPTIONS", "-Xshare:off"), logged::add)).as("a JVM refuses -Xshare:off with ArchiveClassesAtExit").isNull();
        LaneClassArchive archive = LaneClassArchive.forThisJvm("-Xmx96m", env, logged::add);
        assertThat(archive).isNotNull();
        assertThat(archive.archive().getParent()).isEqualTo(dir.resolve("backfill"));
    }

    @Test
    void lanesThatLoadAnAgentOrTheFlightRecorderGetNoArchiveWhereverTheOptionComesFrom() {
        Map<String, String> env = Map.of("XDG_CACHE_HOME", dir.toString());

        assertThat(LaneClassArchive.forThisJvm("-Xmx96m -javaagent:/opt/otel.jar", env, logged::add)).isNull();
        assertThat(LaneClassArchive.forThisJvm("-XX:StartFlightRecording=filename=/tmp/x.jfr", env, logged::add)).isNull();
        assertThat(LaneClassArchive.forThisJvm("-agentpath:/opt/profiler.so", env, logged::add)).isNull();
        assertThat(LaneClassArchive.forThisJvm("-Xmx96m", Map.of("XDG_CACHE_HOME", dir.toString(),
                "JAVA_TOOL_OPTIONS", "-javaagent:/opt/dd.jar"), logged::add)).isNull();
        assertThat(LaneClassArchive.forThisJvm(null, Map.of("XDG_CACHE_HOME", dir.toString(),
                "JDK_JAVA_OPTIONS", "-XX:+FlightRecorder"), logged::add)).isNull();

        assertThat(logged).hasSize(5);
        assertThat(logged.get(0)).contains("-javaagent in the lane options");
        assertThat(logged.get(3)).contains("-javaagent in JAVA_TOOL_OPTIONS");
        assertThat(logged.get(4)).contains("FlightRecorder in JDK_JAVA_OPTIONS");
        assertThat(LaneClassArchive.forThisJvm("-Xmx96m -Dagent.name=none", env, logged::add)).isNotNull();
    }

    @Test
    void theDescriptionSaysWhetherLanesWouldMapTheArchiveMakeItOrGoWithout() throws IOException {
        Map<String, String> env = Map.of("XDG_CACHE_HOME", dir.toString());
        Path archive = LaneClassArchive.forThisJvm(null, env, logged::add).archive();

        assertThat(LaneClassArchive.describe("-Xmx64m", env)).isEqualTo("made by the first lane's clean exit: " + archive);
        Files.writeString(archive, "an archive");
        assertThat(LaneClassArchive.describe("-Xmx64m", env)).isEqualTo("mapped: " + archive);
        assertThat(LaneClassArchive.describe("-Xshare:off", env)).startsWith("off: the lane options set class data sharing");
        assertThat(LaneClassArchive.describe(null, Map.of("XDG_CACHE_HOME", dir.toString(), "JAVA_TOOL_OPTIONS", "-Xshare:off")))
                .isEqualTo("off: the lane options set class data sharing themselves (Xshare in JAVA_TOOL_OPTIONS)");
        assertThat(LaneClassArchive.describe(null, Map.of("XDG_CACHE_HOME", dir.toString(), "_JAVA_OPTIONS", "-agentlib:jdwp=transport=dt_socket")))
                .startsWith("off: -agentlib in _JAVA_OPTIONS may turn on a class file load hook");
    }

    @Test
    void aJvmFatalErrorOfALaneThatMappedTheArchiveIsPutDownToItAndNoLaneMapsItAgain() throws IOException {
        LaneClassArchive archive = archive();
        Files.writeString(archive.archive(), "an archive");
        archive.jvmOptions(0);
        archive.jvmOptions(1);

        assertThat(archive.laneExited(1, 137)).as("a SIGKILL is the lane's own failure").isFalse();
        assertThat(archive.jvmOptions(1)).containsExactly("-XX:SharedArchiveFile=" + archive.archive());
        assertThat(archive.laneExited(0, LaneClassArchive.JVM_FATAL_ERROR_EXIT)).isTrue();

        assertThat(archive.jvmOptions(0)).isEmpty();
        assertThat(archive.jvmOptions(2)).isEmpty();
        assertThat(archive.laneExited(1, LaneClassArchive.JVM_FATAL_ERROR_EXIT))
                .as("lane 1 had mapped it too").isTrue();
        assertThat(archive.laneExited(0, LaneClassArchive.JVM_FATAL_ERROR_EXIT))
                .as("restarted without the archive, its next fatal error is its own").isFalse();
        assertThat(logged).hasSize(1);
        assertThat(logged.get(0)).contains("lane 0 ended in a JVM fatal error").contains("-Xshare:off");
    }

    @Test
    void theArchiveIsNamedForTheJvmAndTheClassPathFilesAsTheyAre() throws IOException {
        Path jar = Files.writeString(dir.resolve("app.jar"), "v1");
        String key = LaneClassArchive.key("/jdk", "17.0.1", jar.toString());

        assertThat(LaneClassArchive.key("/jdk", "17.0.1", jar.toString())).isEqualTo(key);
        assertThat(LaneClassArchive.key("/jdk", "17.0.2", jar.toString())).isNotEqualTo(key);
        assertThat(LaneClassArchive.key("/other-jdk", "17.0.1", jar.toString())).isNotEqualTo(key);
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(LaneClassArchive.key("/jdk", "17.0.1", jar.toString())).as("a rebuilt jar").isNotEqualTo(key);
    }

    /**
     * Real child JVMs through the launcher: the first lane dumps the archive when it exits, and a lane started after
     * it maps it (the JVM's own CDS log says so). CDS archives classes from jars only, so the lane is a jar.
     */
    @Test
    void onARealJvmTheFirstLaneDumpsTheArchiveAndTheNextLaneMapsIt() throws Exception {
        Path jar = laneJar();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> base = List.of(java, "-Xlog:cds=info", "-cp", jar.toString(), ArchiveProbeLane.class.getName());
        LaneClassArchive archive = new LaneClassArchive(dir, LaneClassArchive.key(System.getProperty("java.home"),
                System.getProperty("java.vm.version"), jar.toString()), ProcessHandle.current().pid(), logged::add);

        Path first = runOneLane(base, archive, dir.resolve("logs-1"));
        assertThat(archive.archive()).as(Files.readString(first)).isRegularFile();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.filter(f -> f.toString().endsWith(".tmp"))).isEmpty();
        }

        Path second = runOneLane(base, archive, dir.resolve("logs-2"));
        assertThat(Files.readString(second)).as("the second lane's JVM maps the dynamic archive")
                .contains("Mapped dynamic region").contains("probe lane done");
        assertThat(logged).isEmpty();
    }

    /**
     * A class file load hook the options do not show (here an agent in the lane's base command; in life one attached
     * to a running lane). A Java 17 JVM that maps the dynamic archive dies of it when it loads an archived class from
     * a multi-release jar's versioned section; the lane is then restarted without the archive and not counted, so it
     * finishes within a failure budget of zero. On a JVM without that defect the lane finishes on its first start.
     */
    @Test
    void onARealJvmALaneWithAnUnseenClassLoadHookFinishesWithinABudgetOfZero() throws Exception {
        Path jar = laneJar();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        LaneClassArchive archive = new LaneClassArchive(dir, LaneClassArchive.key(System.getProperty("java.home"),
                System.getProperty("java.vm.version"), jar.toString()), ProcessHandle.current().pid(), logged::add);
        runOneLane(List.of(java, "-cp", jar.toString(), ArchiveProbeLane.class.getName()), archive, dir.resolve("logs-1"));
        assertThat(archive.archive()).isRegularFile();

        List<String> hooked = List.of(java, "-javaagent:" + agentJar(), "-cp", jar.toString(), ArchiveProbeLane.class.getName());
        Path logs = dir.resolve("logs-2");
        try (LocalLaneLauncher launcher = new LocalLaneLauncher(hooked, Map.of(), List.of(), LaneLogDirectory.chosen(logs), 0, logged::add, archive)) {
            for (int start = 0; start < 3 && !finished(launcher.logFile(0)); start++) {
                launcher.ensure(1);
                launcher.awaitLaneExit(Duration.ofSeconds(60));
                Thread.sleep(1100); // past the launcher's restart back-off
            }
            launcher.ensure(1);
            launcher.stop(Duration.ofSeconds(60));
            assertThat(Files.readString(launcher.logFile(0))).contains("probe lane done");
            assertThat(launcher.failures()).isZero();
        }
        if (logged.stream().anyMatch(line -> line.contains("put down to the class archive"))) {
            assertThat(logged).anyMatch(line -> line.contains("lanes start without it from now on"));
            assertThat(archive.jvmOptions(0)).isEmpty();
            try (Stream<Path> files = Files.list(logs)) {
                assertThat(files.map(f -> f.getFileName().toString())).as("the crash report lies beside the lane's log")
                        .anyMatch(name -> name.matches("lane-0-hs_err-[0-9]+\\.log"));
            }
        }
    }

    private static boolean finished(Path log) throws IOException {
        return Files.exists(log) && Files.readString(log).contains("probe lane done");
    }

    /** A jar whose agent registers a class file transformer that changes nothing, as APM agents do. */
    private Path agentJar() throws IOException {
        Path jar = dir.resolve("no-op-agent.jar");
        try (OutputStream out = Files.newOutputStream(jar);
             JarOutputStream jarOut = new JarOutputStream(out, manifest("Premain-Class", NoOpTransformerAgent.class.getName()))) {
            addClass(jarOut, NoOpTransformerAgent.class, "");
            addClass(jarOut, NoOpTransformerAgent.Transformer.class, "");
        }
        return jar;
    }

    /** A class the probe lane's jar holds only in its {@code META-INF/versions/11} section. */
    public static final class VersionedClass {
    }

    /** An agent that turns on the class file load hook and changes no class. */
    public static final class NoOpTransformerAgent {
        public static void premain(String arguments, java.lang.instrument.Instrumentation instrumentation) {
            instrumentation.addTransformer(new Transformer());
        }

        static final class Transformer implements java.lang.instrument.ClassFileTransformer {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> type, java.security.ProtectionDomain domain,
                                    byte[] bytes) {
                return null;
            }
        }
    }

    private Path runOneLane(List<String> base, LaneClassArchive archive, Path logs) throws Exception {
        try (LocalLaneLauncher launcher = new LocalLaneLauncher(base, Map.of(), List.of(), LaneLogDirectory.chosen(logs), 0, logged::add, archive)) {
            launcher.ensure(1);
            launcher.awaitLaneExit(Duration.ofSeconds(60));
            launcher.stop(Duration.ofSeconds(60));
            return launcher.logFile(0);
        }
    }

    /**
     * A multi-release jar holding {@link ArchiveProbeLane}, the child's whole class path, and {@link VersionedClass}
     * only under {@code META-INF/versions/11}, as the lanes' jar holds pgjdbc's {@code LazyCleanerImpl}.
     */
    private Path laneJar() throws IOException {
        Path jar = dir.resolve("probe-lane.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out, manifest("Multi-Release", "true"))) {
            addClass(jarOut, ArchiveProbeLane.class, "");
            addClass(jarOut, VersionedClass.class, "META-INF/versions/11/");
        }
        return jar;
    }

    private static Manifest manifest(String attribute, String value) {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue(attribute, value);
        return manifest;
    }

    private static void addClass(JarOutputStream jar, Class<?> type, String prefix) throws IOException {
        String entry = type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getClassLoader().getResourceAsStream(entry)) {
            jar.putNextEntry(new JarEntry(prefix + entry));
            in.transferTo(jar);
            jar.closeEntry();
        }
    }

    /**
     * The child: loads a few classes of its own jar (one from the jar's versioned section) and of the JDK, then exits
     * cleanly like a lane told to stop.
     */
    public static final class ArchiveProbeLane {
        public static void main(String[] args) throws ClassNotFoundException {
            Class.forName(VersionedClass.class.getName());
            String done = new String("probe lane done".getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
            System.out.println(String.join(" ", List.of(done)) + " " + args.length);
            System.exit(0);
        }
    }
}

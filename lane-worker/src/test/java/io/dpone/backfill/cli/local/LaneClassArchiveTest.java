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
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
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
        LaneClassArchive archive = LaneClassArchive.forThisJvm("-Xmx96m", env, logged::add);
        assertThat(archive).isNotNull();
        assertThat(archive.archive().getParent()).isEqualTo(dir.resolve("backfill"));
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

    private Path runOneLane(List<String> base, LaneClassArchive archive, Path logs) throws Exception {
        try (LocalLaneLauncher launcher = new LocalLaneLauncher(base, Map.of(), List.of(), logs, 0, logged::add, archive)) {
            launcher.ensure(1);
            launcher.awaitLaneExit(Duration.ofSeconds(60));
            launcher.stop(Duration.ofSeconds(60));
            return launcher.logFile(0);
        }
    }

    /** A jar holding {@link ArchiveProbeLane}, the child's whole class path. */
    private Path laneJar() throws IOException {
        Path jar = dir.resolve("probe-lane.jar");
        String entry = ArchiveProbeLane.class.getName().replace('.', '/') + ".class";
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out);
             InputStream in = ArchiveProbeLane.class.getClassLoader().getResourceAsStream(entry)) {
            jarOut.putNextEntry(new JarEntry(entry));
            in.transferTo(jarOut);
            jarOut.closeEntry();
        }
        return jar;
    }

    /** The child: loads a few classes of its own jar and of the JDK, then exits cleanly like a lane told to stop. */
    public static final class ArchiveProbeLane {
        public static void main(String[] args) {
            String done = new String("probe lane done".getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
            System.out.println(String.join(" ", List.of(done)) + " " + args.length);
            System.exit(0);
        }
    }
}

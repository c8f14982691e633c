package io.dpone.backfill.cli.local;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 39, item 5: lane logs of a local run on a shared host. Another user plants a link or a directory where a run
 * used to write ({@code <tmp>/backfill-<runKey>}); a run, possibly root's, must write nothing through it. "Another
 * user" is uid 65534 (nobody) when the tests run as root, as in CI; otherwise what the running user cannot own.
 */
class LaneLogDirectoryTest {
    private static final String RUN_KEY = "3f2a9c";
    private static final String NOBODY = "65534";

    @TempDir
    Path tmp;

    private String realTmp;

    @BeforeEach
    void sharedTmpIsThisTestsDirectory() {
        realTmp = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", tmp.toString());
    }

    @AfterEach
    void restoreTmp() {
        System.setProperty("java.io.tmpdir", realTmp);
    }

    @Test
    void aLinkPlantedAtThePredictablePathReceivesNothingAndTheRunsLogsAreTheUsersAlone() throws Exception {
        Path victim = Files.createDirectory(tmp.resolve("victim"));
        Path planted = Files.createSymbolicLink(tmp.resolve("backfill-" + RUN_KEY), victim);
        Path plantedDirectory = Files.createDirectory(tmp.resolve("backfill-" + RUN_KEY + "-x"));
        handToAnotherUser(victim);
        handToAnotherUser(plantedDirectory);

        LaneLogDirectory logs = LaneLogDirectory.fresh(RUN_KEY);
        Path log = runOneLane(logs);

        assertThat(entries(victim)).as("the link's target").isEmpty();
        assertThat(entries(plantedDirectory)).as("a directory another user made first").isEmpty();
        assertThat(logs.path()).isNotEqualTo(planted).isNotEqualTo(plantedDirectory).startsWith(tmp);
        assertThat(Files.readString(log)).contains("jvm options:");
        assertThat(mode(logs.path())).isEqualTo("rwx------");
        assertThat(mode(log)).isEqualTo("rw-------");
    }

    @Test
    void aChosenDirectoryThatDoesNotExistIsCreatedForTheUserAlone() throws Exception {
        LaneLogDirectory logs = LaneLogDirectory.chosen(tmp.resolve("mine").resolve("lanes"));

        Path log = logs.log("lane-0.log");

        assertThat(mode(logs.path())).isEqualTo("rwx------");
        assertThat(mode(log)).isEqualTo("rw-------");
    }

    @Test
    void aChosenDirectoryThatIsALinkIsRefusedNamingTheOption() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("lanes"), Files.createDirectory(tmp.resolve("elsewhere")));

        assertThatThrownBy(() -> LaneLogDirectory.chosen(link)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--log-dir " + link).hasMessageContaining("symbolic link");
    }

    @Test
    void aChosenDirectoryOthersCanWriteIsRefusedNamingTheOption() throws Exception {
        for (String mode : List.of("rwxrwxrwx", "rwxrwx---", "rwx-w----", "rwx---rwx")) {
            Path shared = Files.createDirectory(tmp.resolve("shared-" + mode.hashCode()));
            Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString(mode));

            assertThatThrownBy(() -> LaneLogDirectory.chosen(shared)).as(mode).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("--log-dir " + shared).hasMessageContaining("writable by its group or others");
        }
    }

    @Test
    void aChosenDirectoryOfAnotherUserIsRefusedNamingTheOption() throws Exception {
        Path theirs = Files.createDirectory(tmp.resolve("theirs"));
        boolean root = handToAnotherUser(theirs);
        Path other = root ? theirs : Path.of("/");

        assertThatThrownBy(() -> LaneLogDirectory.chosen(other)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--log-dir " + other).hasMessageContaining("not to the user running backfill");
    }

    @Test
    void aLogFileThatIsALinkIsNotWrittenThrough() throws Exception {
        LaneLogDirectory logs = LaneLogDirectory.chosen(tmp.resolve("lanes"));
        Path target = Files.writeString(tmp.resolve("precious"), "untouched");
        Files.createSymbolicLink(logs.path().resolve("lane-0.log"), target);

        assertThatThrownBy(() -> logs.log("lane-0.log")).isInstanceOf(IOException.class).hasMessageContaining("not a regular file");
        assertThat(Files.readString(target)).isEqualTo("untouched");
    }

    @Test
    void anEarlierRunsLogInTheUsersOwnDirectoryIsUsedAgain() throws Exception {
        LaneLogDirectory logs = LaneLogDirectory.chosen(tmp.resolve("lanes"));
        Files.writeString(logs.log("lane-0.log"), "first run\n");

        assertThat(Files.readString(logs.log("lane-0.log"))).isEqualTo("first run\n");
    }

    /** Gives {@code path} to uid 65534 when this test may (as root); returns whether it could. */
    private static boolean handToAnotherUser(Path path) throws IOException {
        if (!"root".equals(System.getProperty("user.name"))) {
            return false;
        }
        UserPrincipal nobody = path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(NOBODY);
        Files.setOwner(path, nobody);
        return true;
    }

    /** Lane 0 of a real child JVM writing into {@code logs}, as `backfill run` starts it. */
    private static Path runOneLane(LaneLogDirectory logs) throws Exception {
        List<String> base = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LocalLaneLauncherTest.OptionsProbeLane.class.getName());
        try (LocalLaneLauncher launcher = new LocalLaneLauncher(base, Map.of(), List.of(), logs, 0, line -> { }, null)) {
            launcher.ensure(1);
            launcher.awaitLaneExit(Duration.ofSeconds(60));
            launcher.stop(Duration.ofSeconds(60));
            return launcher.logFile(0);
        }
    }

    private static List<Path> entries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }
}

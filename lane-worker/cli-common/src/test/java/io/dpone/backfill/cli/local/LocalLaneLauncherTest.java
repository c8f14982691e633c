package io.dpone.backfill.cli.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Real child JVMs started by the launcher: where a lane's JVM fatal error report goes. */
class LocalLaneLauncherTest {
    @TempDir
    Path dir;

    private final List<String> logged = new ArrayList<>();

    @Test
    void aLanesJvmWritesItsFatalErrorReportBesideItsLog() throws Exception {
        Path logs = dir.resolve("logs");

        String options = runOneLane(List.of(), logs);

        assertThat(options).contains("-XX:ErrorFile=" + logs.resolve("lane-0-hs_err-%p.log"));
    }

    @Test
    void anErrorFileTheUserChoseIsKept() throws Exception {
        String options = runOneLane(List.of("-XX:ErrorFile=/var/tmp/mine-%p.log"), dir.resolve("logs"));

        assertThat(options).contains("-XX:ErrorFile=/var/tmp/mine-%p.log").doesNotContain("hs_err");
    }

    /** The JVM options lane 0's JVM got, as it printed them. */
    private String runOneLane(List<String> userOptions, Path logs) throws Exception {
        List<String> base = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        base.addAll(userOptions);
        base.addAll(List.of("-cp", System.getProperty("java.class.path"), OptionsProbeLane.class.getName()));
        try (LocalLaneLauncher launcher = new LocalLaneLauncher(base, Map.of(), List.of(), LaneLogDirectory.chosen(logs), 0, logged::add, null)) {
            launcher.ensure(1);
            launcher.awaitLaneExit(Duration.ofSeconds(60));
            launcher.stop(Duration.ofSeconds(60));
            String log = Files.readString(launcher.logFile(0));
            assertThat(log).contains("jvm options:");
            return log;
        }
    }

    /** The child: prints the JVM options it was started with and exits cleanly. */
    public static final class OptionsProbeLane {
        public static void main(String[] args) {
            System.out.println("jvm options: " + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        }
    }
}

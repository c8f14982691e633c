package io.dpone.backfill.cli.local;

import io.dpone.backfill.core.campaign.TargetType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LaneCommandLineTest {
    /** What the PostgreSQL adapter asks for its lanes (ADR 0026). */
    private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
    @AfterEach
    void clearOptions() {
        System.clearProperty(LaneCommandLine.JAVA_OPTS_PROPERTY);
    }

    @Test
    void aLaneIntoPostgresqlStartsWithTheC1CompilerOnlyAndAnSqlServerLaneWithTheJvmsDefault() {
        List<String> postgres = LaneCommandLine.lane(TargetType.POSTGRES);
        List<String> mssql = LaneCommandLine.lane(TargetType.MSSQL);

        assertThat(postgres).contains(C1_ONLY)
                .endsWith("-cp", LaneCommandLine.absoluteClassPath(System.getProperty("java.class.path"),
                        Path.of("").toAbsolutePath()), "io.dpone.backfill.cli.BackfillCli");
        assertThat(postgres.indexOf(C1_ONLY)).isLessThan(postgres.indexOf("-cp"));
        assertThat(mssql).doesNotContain(C1_ONLY).isEqualTo(LaneCommandLine.base());
    }

    @Test
    void theUsersOptionsComeAfterTheDefaultsSoTheyWin() {
        System.setProperty(LaneCommandLine.JAVA_OPTS_PROPERTY, " -XX:TieredStopAtLevel=4   -Xmx96m ");

        List<String> command = LaneCommandLine.lane(TargetType.POSTGRES);

        int defaults = command.indexOf(C1_ONLY);
        assertThat(command.subList(defaults, defaults + 3))
                .containsExactly(C1_ONLY, "-XX:TieredStopAtLevel=4", "-Xmx96m");
    }

    @Test
    void optionsOfOneLanesStartGoAmongTheJvmOptionsBeforeTheClassPath() {
        List<String> command = LaneCommandLine.lane(TargetType.POSTGRES);

        List<String> with = LaneCommandLine.withJvmOptions(command, List.of("-XX:SharedArchiveFile=/c/lane.jsa"));

        int option = with.indexOf("-XX:SharedArchiveFile=/c/lane.jsa");
        assertThat(option).isPositive().isEqualTo(with.indexOf("-cp") - 1);
        assertThat(with).hasSize(command.size() + 1).endsWith(command.subList(command.indexOf("-cp"), command.size())
                .toArray(String[]::new));
    }

    /**
     * Issue 24: {@code java -jar lane-worker/cli/target/backfill.jar certify ...} leaves java.class.path relative; certify
     * starts its child runs in their scratch directory, where that path names nothing and the main class is not found.
     */
    @Test
    void aRelativeJarOnTheClassPathIsResolvedAgainstTheDriversWorkingDirectory() {
        Path cwd = Path.of("/home/ops/dpone");
        String sep = java.io.File.pathSeparator;

        assertThat(LaneCommandLine.absoluteClassPath("lane-worker/cli/target/backfill.jar", cwd))
                .isEqualTo("/home/ops/dpone/lane-worker/cli/target/backfill.jar");
        assertThat(LaneCommandLine.absoluteClassPath("/opt/a.jar" + sep + "./lib/b.jar" + sep + "../c", cwd))
                .isEqualTo("/opt/a.jar" + sep + "/home/ops/dpone/lib/b.jar" + sep + "/home/ops/c");
    }

    @Test
    void theChildCommandCarriesAnAbsoluteClassPath() {
        List<String> command = LaneCommandLine.base();

        String classPath = command.get(command.indexOf("-cp") + 1);
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            assertThat(Path.of(entry).isAbsolute()).as(entry).isTrue();
        }
    }
}

package io.dpone.backfill.e2e;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jar the lane image ships (lane-worker/worker/target/backfill-lane.jar, operator/controller/src/main/docker/Dockerfile.lane) holds what
 * a lane runs and nothing of the rest of the toolbox: no PostgreSQL server binaries (the demo's), no Kubernetes
 * client model (the kubectl plugin's), no bench and no other CLI command. The operator's reconciler suites run it
 * as every lane pod (LaneRunner), which proves it loads; this holds its contents.
 */
class LaneJarIT {
    private static final Path LANE_JAR = BackfillProcess.REPO.resolve("lane-worker/worker/target/backfill-lane.jar");

    @Test
    void theLaneJarHoldsNoServerBinariesNoKubernetesModelNoBenchAndNoOtherCommand() throws IOException {
        try (JarFile jar = new JarFile(LANE_JAR.toFile())) {
            List<String> names = jar.stream().map(ZipEntry::getName).toList();
            assertThat(names).as("the lane's own classes").contains("io/dpone/backfill/lane/LaneMain.class",
                    "io/dpone/backfill/wiring/Connectors.class", "org/postgresql/Driver.class");
            assertThat(names).noneMatch(n -> n.endsWith(".txz")).as("no PostgreSQL server binaries");
            assertThat(names).noneMatch(n -> n.startsWith("io/fabric8/kubernetes/")).as("no Kubernetes model");
            assertThat(names).noneMatch(n -> n.startsWith("io/dpone/backfill/cli/")).as("no CLI command, no bench");
            assertThat(names).noneMatch(n -> n.startsWith("io/dpone/backfill/pgembedded/")).as("no embedded PostgreSQL");
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo("io.dpone.backfill.lane.LaneMain");
        }
        // A fifth of the CLI's jar (38 MB with the demo's PostgreSQL tarball and the kubectl plugin's model).
        assertThat(Files.size(LANE_JAR)).isLessThan(Files.size(BackfillProcess.JAR) / 4);
    }

    @Test
    void theLaneJarRunsTheLaneCommandAndRefusesAnyOtherWithTheInvalidInputCode() throws Exception {
        assertThat(run("lane", "--help")).isZero();
        assertThat(run("status", "campaign.yaml")).isEqualTo(2);
    }

    private static int run(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", LANE_JAR.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
        return process.exitValue();
    }
}

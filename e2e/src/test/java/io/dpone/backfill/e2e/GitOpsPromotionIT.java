package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The DEV to PROD promotion example (examples/gitops): both overlays rendered by the real {@code kubectl kustomize},
 * each rendered campaign planned by the packaged {@code backfill plan}. The overlays change only the namespace, the
 * Secret names and the lane resources; the chunk plan is the same in both, and what the run key binds is shown.
 */
class GitOpsPromotionIT {
    private static final Path GITOPS = BackfillProcess.REPO.resolve("examples").resolve("gitops");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path work;

    static String dev;
    static String prod;

    @BeforeAll
    static void renderBothOverlays() throws Exception {
        assumeTrue(onPath("kubectl"), "kubectl is not installed (Debian package kubernetes-client; .ci/run installs it): "
                + "the kustomize overlays cannot be rendered");
        dev = kustomize("dev");
        prod = kustomize("prod");
    }

    @Test
    void theOverlaysDifferOnlyInNamespaceSecretNamesAndLaneResources() throws IOException {
        JsonNode d = YAML.readTree(dev);
        JsonNode p = YAML.readTree(prod);
        assertThat(d.path("metadata").path("namespace").asText()).isEqualTo("analytics-dev");
        assertThat(p.path("metadata").path("namespace").asText()).isEqualTo("analytics-prod");
        assertThat(p.path("spec").path("target").path("connectionSecretRef").path("name").asText()).isEqualTo("warehouse-postgres-prod");
        assertThat(p.path("spec").path("lane").path("resources").path("limits").path("memory").asText()).isEqualTo("8Gi");
        assertThat(withoutEnvironment(d)).isEqualTo(withoutEnvironment(p));
    }

    @Test
    void bothRenderedCampaignsPlanTheSameChunks() throws Exception {
        JsonNode d = plan(dev, "dev");
        JsonNode p = plan(prod, "prod");
        assertThat(d.path("chunks").path("count").asInt()).isEqualTo(128);
        assertThat(p.path("chunks")).isEqualTo(d.path("chunks"));
        assertThat(p.path("planDigest").asText()).isEqualTo(d.path("planDigest").asText()).matches("[0-9a-f]{64}");
        assertThat(p.path("publication")).isEqualTo(d.path("publication"));
    }

    /**
     * The run key binds the backfill id, the target (engine, connection Secret name, table), the plan digest and the
     * config digest (the normalised spec without suspend and lane). Namespace and lane resources are outside it;
     * the Secret names are inside it, so dev and prod have different run keys for the same plan.
     */
    @Test
    void namespaceAndLaneResourcesStayOutOfTheRunKeyButSecretNamesEnterIt() throws Exception {
        JsonNode d = plan(dev, "dev");
        JsonNode p = plan(prod, "prod");
        assertThat(p.path("runKey").asText()).isNotEqualTo(d.path("runKey").asText());
        assertThat(p.path("configDigest").asText()).isNotEqualTo(d.path("configDigest").asText());

        // prod's namespace and lane resources with dev's Secret names: dev's identity exactly.
        String prodWithDevSecrets = prod.replace("app-postgres-prod", "app-postgres-dev").replace("warehouse-postgres-prod", "warehouse-postgres-dev");
        JsonNode mixed = plan(prodWithDevSecrets, "mixed");
        assertThat(mixed.path("runKey").asText()).isEqualTo(d.path("runKey").asText());
        assertThat(mixed.path("configDigest").asText()).isEqualTo(d.path("configDigest").asText());
    }

    @Test
    void aPolicyChangeInAnOverlayChangesTheRunKey() throws Exception {
        JsonNode d = plan(dev, "dev");
        JsonNode changed = plan(dev.replace("mode: shadow_swap", "mode: direct"), "changed-policy");
        assertThat(changed.path("planDigest").asText()).isEqualTo(d.path("planDigest").asText());
        assertThat(changed.path("runKey").asText()).isNotEqualTo(d.path("runKey").asText());
    }

    private static JsonNode withoutEnvironment(JsonNode campaign) {
        ObjectNode c = campaign.deepCopy();
        ((ObjectNode) c.path("metadata")).remove("namespace");
        ((ObjectNode) c.path("spec").path("source").path("connectionSecretRef")).remove("name");
        ((ObjectNode) c.path("spec").path("target").path("connectionSecretRef")).remove("name");
        ((ObjectNode) c.path("spec").path("lane")).remove("resources");
        return c;
    }

    private static JsonNode plan(String campaign, String name) throws Exception {
        Path file = Files.writeString(work.resolve(name + ".yaml"), campaign);
        Path cwd = Files.createDirectories(work.resolve("cwd-" + name));
        BackfillProcess.Result r = BackfillProcess.run(cwd, "plan", file.toString(), "--format", "json");
        assertThat(r.exitCode()).as(name + ": " + r.stderr()).isZero();
        return JSON.readTree(r.stdout());
    }

    private static String kustomize(String overlay) throws IOException, InterruptedException {
        Path out = work.resolve(overlay + ".rendered.yaml");
        Path err = work.resolve(overlay + ".stderr.txt");
        Process p = new ProcessBuilder("kubectl", "kustomize", GITOPS.resolve("overlays").resolve(overlay).toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // stderr carries kustomize v5's deprecation warnings for the v2-compatible fields; only the exit code counts.
        assertThat(p.exitValue()).as(Files.readString(err)).isZero();
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}

package io.dpone.backfill.crds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Argo CD health check shipped in the chart, run by the real Lua 5.1 interpreter (the dialect Argo CD embeds)
 * against a status of every phase. A harness sets the global {@code obj} as Argo CD does and loads the script.
 */
class ArgoCdHealthCheckIT {
    static final Path SCRIPT = HelmChartTest.CHART.resolve("health").resolve("backfillcampaign.lua");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path work;

    @BeforeAll
    static void needsLua() {
        assumeTrue(Tools.onPath("lua5.1"), "lua5.1 is not installed (Debian package lua5.1; .ci/run installs it): "
                + "the Argo CD health check cannot be run");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "Planned, Progressing",
            "Prepared, Progressing",
            "Loading, Progressing",
            "Validating, Progressing",
            "Publishing, Progressing",
            "Published, Progressing",
            "HandoffCommitted, Healthy",
            "Suspended, Suspended",
            "Recoverable, Degraded",
            "Blocked, Degraded",
            "Invalid, Degraded",
    })
    void everyPhaseMapsToItsHealth(String phase, String health) throws Exception {
        Health h = run(campaign(phase, 3, 3));
        assertThat(h.status()).as(h.message()).isEqualTo(health);
        assertThat(h.message()).isNotBlank();
    }

    @Test
    void aCampaignTheOperatorHasNotSeenYetIsProgressing() throws Exception {
        ObjectNode fresh = campaign("Loading", 1, 1);
        fresh.remove("status");
        assertThat(run(fresh)).isEqualTo(new Health("Progressing", "Waiting for the operator to plan the campaign"));
    }

    @Test
    void aStatusOfAnOlderGenerationIsProgressingEvenWhenItSaysHealthy() throws Exception {
        Health h = run(campaign("HandoffCommitted", 4, 3));
        assertThat(h).isEqualTo(new Health("Progressing", "Waiting for the operator to observe generation 4"));
    }

    @Test
    void loadingShowsItsChunkProgress() throws Exception {
        ObjectNode c = campaign("Loading", 2, 2);
        ObjectNode progress = ((ObjectNode) c.path("status")).putObject("progress");
        progress.put("totalChunks", 128).put("committedChunks", 41);
        assertThat(run(c)).isEqualTo(new Health("Progressing", "Loading: 41/128 chunks committed"));
    }

    @Test
    void specSuspendIsSuspendedBeforeTheOperatorReactsButAfterItObservedTheGeneration() throws Exception {
        ObjectNode c = campaign("Loading", 2, 2);
        ((ObjectNode) c.path("spec")).put("suspend", true);
        assertThat(run(c).status()).isEqualTo("Suspended");
    }

    @Test
    void aStalledConditionIsDegradedAndItsMessageAndTheNextActionAreShown() throws Exception {
        ObjectNode c = campaign("Blocked", 2, 2);
        ObjectNode status = (ObjectNode) c.path("status");
        condition(status, "Stalled", "True", "ValidationFailed", "validation failed: 3 duplicate keys");
        status.put("recommendedAction", "inspect the shadow, then create a new campaign");
        assertThat(run(c)).isEqualTo(new Health("Degraded",
                "ValidationFailed: validation failed: 3 duplicate keys | next: inspect the shadow, then create a new campaign"));
    }

    @Test
    void todaysBlockedConditionExplainsABlockedCampaign() throws Exception {
        ObjectNode c = campaign("Blocked", 2, 2);
        ObjectNode status = (ObjectNode) c.path("status");
        condition(status, "Ready", "False", "Blocked", "the campaign is Blocked, not yet handed off");
        condition(status, "Degraded", "False", "AsExpected", "");
        condition(status, "Blocked", "True", "SchemaDrift", "the target changed shape");
        assertThat(run(c)).isEqualTo(new Health("Degraded", "SchemaDrift: the target changed shape"));
    }

    @ParameterizedTest(name = "{0} {1}={2} -> Degraded while Loading")
    @CsvSource({
            "Degraded, True, LanePodsStuck",
            "Stalled, True, PreflightFailed",
            "Ready, False, PreflightFailed",
            "Reconciling, True, LanePodsStuck",
            "Stalled, True, Recoverable",
            "RolledBack, True, RolledBack",
    })
    void conditionsThatNeedAPersonAreDegradedInAnyPhase(String type, String status, String reason) throws Exception {
        ObjectNode c = campaign("Loading", 2, 2);
        condition((ObjectNode) c.path("status"), type, status, reason, "see the operator's event");
        Health h = run(c);
        assertThat(h.status()).isEqualTo("Degraded");
        assertThat(h.message()).startsWith(reason + ": ");
    }

    @ParameterizedTest(name = "{0} {1}={2} stays Progressing")
    @CsvSource({
            "Stalled, False, AsExpected",
            "Degraded, False, LanePodsStuck",
            "Reconciling, True, Loading",
            "Ready, False, Loading",
    })
    void conditionsThatDoNotNeedAPersonLeaveLoadingProgressing(String type, String status, String reason) throws Exception {
        ObjectNode c = campaign("Loading", 2, 2);
        condition((ObjectNode) c.path("status"), type, status, reason, "");
        assertThat(run(c).status()).isEqualTo("Progressing");
    }

    @Test
    void theArgoCdConfigMapSnippetCarriesExactlyTheTestedScript() throws IOException {
        JsonNode cm = new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
                .readTree(SCRIPT.resolveSibling("argocd-cm.yaml").toFile());
        assertThat(cm.path("data").path("resource.customizations.health.backfill.dpone.io_BackfillCampaign").asText())
                .isEqualTo(Files.readString(SCRIPT));
    }

    @Test
    void anUnknownPhaseIsUnknownNotHealthy() throws Exception {
        assertThat(run(campaign("Exploded", 1, 1))).isEqualTo(new Health("Unknown", "Unknown phase Exploded"));
    }

    record Health(String status, String message) {
    }

    private static ObjectNode campaign(String phase, long generation, long observed) {
        ObjectNode c = JSON.createObjectNode();
        c.put("apiVersion", "backfill.dpone.io/v1alpha1").put("kind", "BackfillCampaign");
        c.putObject("metadata").put("name", "events-initial").put("namespace", "team-a").put("generation", generation);
        c.putObject("spec").put("backfillId", "events_initial_v1");
        ObjectNode status = c.putObject("status");
        status.put("phase", phase).put("observedGeneration", observed);
        status.putArray("conditions");
        return c;
    }

    private static void condition(ObjectNode status, String type, String value, String reason, String message) {
        ((ArrayNode) status.path("conditions")).addObject().put("type", type).put("status", value).put("reason", reason)
                .put("message", message).put("lastTransitionTime", "2026-12-01T10:00:00Z");
    }

    /** Runs the script as Argo CD does: {@code obj} is the resource as a Lua table, the chunk returns {@code hs}. */
    private static Health run(JsonNode resource) throws IOException, InterruptedException {
        Path harness = work.resolve("harness.lua");
        Files.writeString(harness, "obj = " + lua(resource) + "\n"
                + "local hs = dofile(" + lua(JSON.getNodeFactory().textNode(SCRIPT.toAbsolutePath().toString())) + ")\n"
                + "io.write(hs.status, '\\n', hs.message)\n", StandardCharsets.UTF_8);
        Process p = new ProcessBuilder("lua5.1", harness.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        String[] lines = out.split("\n", 2);
        return new Health(lines[0], lines.length > 1 ? lines[1] : "");
    }

    /** JSON as a Lua table constructor, the shape Argo CD hands the script (objects as tables, arrays 1-based). */
    static String lua(JsonNode n) {
        if (n.isObject()) {
            StringBuilder b = new StringBuilder("{");
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                b.append("[").append(lua(JSON.getNodeFactory().textNode(e.getKey()))).append("] = ").append(lua(e.getValue())).append(", ");
            }
            return b.append("}").toString();
        }
        if (n.isArray()) {
            StringBuilder b = new StringBuilder("{");
            n.forEach(e -> b.append(lua(e)).append(", "));
            return b.append("}").toString();
        }
        if (n.isTextual()) {
            StringBuilder b = new StringBuilder("\"");
            for (char ch : n.asText().toCharArray()) {
                if (ch == '"' || ch == '\\') {
                    b.append('\\').append(ch);
                } else if (ch < 0x20) {
                    b.append('\\').append((int) ch);
                } else {
                    b.append(ch);
                }
            }
            return b.append("\"").toString();
        }
        return n.isNull() ? "nil" : n.asText();
    }
}

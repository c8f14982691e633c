package io.dpone.backfill.crds;

import io.dpone.backfill.testsupport.RepositoryRoot;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The chart's PrometheusRule as Prometheus sees it: rendered by helm, its groups checked by the real
 * {@code promtool check rules}, and every alert unit-tested by {@code promtool test rules} with synthetic series,
 * firing and not firing (crds/src/test/resources/promtool/alerts-test.yaml).
 */
class PrometheusRulesIT {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final Path UNIT_TESTS = Path.of("src", "test", "resources", "promtool", "alerts-test.yaml");

    @TempDir
    static Path work;

    static Path rules;

    @BeforeAll
    static void renderRules() throws IOException {
        assumeTrue(Tools.onPath("promtool"), "promtool is not installed (Debian package prometheus; .ci/run installs it): "
                + "the PrometheusRule cannot be checked");
        List<JsonNode> docs = HelmChartTest.render(new Helm(HelmChartTest.CHART).template().withName("bf").withNamespace("backfill-system")
                .set("metrics.prometheusRule.enabled", "true").set("metrics.assumeMonitoringApi", "true").call());
        JsonNode rule = HelmChartTest.kind(docs, "PrometheusRule").get(0);
        ObjectNode file = YAML.createObjectNode();
        file.set("groups", rule.path("spec").path("groups"));
        rules = work.resolve("rules.yaml");
        YAML.writeValue(rules.toFile(), file);
    }

    @Test
    void promtoolAcceptsTheRenderedRules() throws Exception {
        Result r = promtool("check", "rules", rules.toString());
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("SUCCESS: 8 rules found");
    }

    @Test
    void everyAlertFiresOnItsSyntheticSeriesAndStaysQuietOnTheOthers() throws Exception {
        Path tests = Files.copy(UNIT_TESTS, work.resolve("alerts-test.yaml"));
        Result r = promtool("test", "rules", tests.toString());
        System.out.println(r.output());
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("SUCCESS");
    }

    @Test
    void theUnitTestsCoverEveryAlertBothFiringAndNotFiring() throws IOException {
        Set<String> alerts = new TreeSet<>();
        YAML.readTree(rules.toFile()).path("groups").forEach(g -> g.path("rules").forEach(r -> alerts.add(r.path("alert").asText())));
        Set<String> firing = new TreeSet<>();
        Set<String> quiet = new TreeSet<>();
        for (JsonNode test : YAML.readTree(UNIT_TESTS.toFile()).path("tests")) {
            for (JsonNode t : test.path("alert_rule_test")) {
                (t.path("exp_alerts").isEmpty() ? quiet : firing).add(t.path("alertname").asText());
            }
        }
        assertThat(firing).isEqualTo(alerts);
        assertThat(quiet).isEqualTo(alerts);
    }

    @Test
    void everyAlertLinksToARunbookSectionThatExists() throws IOException {
        String runbook = Files.readString(RepositoryRoot.resolve("src-docs", "runbook.md"));
        List<String> missing = new ArrayList<>();
        for (JsonNode g : YAML.readTree(rules.toFile()).path("groups")) {
            for (JsonNode r : g.path("rules")) {
                String url = r.path("annotations").path("runbook_url").asText();
                assertThat(url).startsWith("https://github.com/dpone/backfill-operator/blob/main/src-docs/runbook.md#alert-");
                if (!runbook.contains("### Alert: " + r.path("alert").asText() + "\n")) {
                    missing.add(r.path("alert").asText());
                }
            }
        }
        assertThat(missing).as("alerts without a '### Alert: NAME' section in src-docs/runbook.md").isEmpty();
    }

    record Result(int exit, String output) {
    }

    private static Result promtool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("promtool"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out);
    }
}

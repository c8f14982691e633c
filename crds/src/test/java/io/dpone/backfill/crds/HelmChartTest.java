package io.dpone.backfill.crds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The operator's chart lints, renders, and grants the operator exactly what it uses, nothing more. */
class HelmChartTest {
    static final Path CHART = Path.of("..", "helm", "backfill-operator");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void chartLintsCleanly() {
        LintResult result = new Helm(CHART).lint().strict().call();
        assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
    }

    @Test
    void allNamespacesGetAClusterRoleWithTheMinimalRules() throws IOException {
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system").call());
        JsonNode role = kind(docs, "ClusterRole").get(0);
        assertThat(rules(role)).containsExactlyInAnyOrder(
                "backfill.dpone.io/backfillcampaigns:get,list,patch,update,watch",
                "backfill.dpone.io/backfillcampaigns/status:get,patch,update",
                "backfill.dpone.io/backfillcampaigns/finalizers:update",
                "/pods:create,delete,get,list,watch",
                "/events:create,patch",
                "/secrets:get");
        JsonNode leader = kind(docs, "Role").stream().filter(r -> r.path("metadata").path("name").asText().endsWith("leader-election"))
                .findFirst().orElseThrow();
        assertThat(rules(leader)).containsExactly("coordination.k8s.io/leases:create,get,update");
        assertThat(leader.path("metadata").path("namespace").asText()).isEqualTo("backfill-system");

        JsonNode deployment = kind(docs, "Deployment").get(0);
        JsonNode container = deployment.path("spec").path("template").path("spec").path("containers").get(0);
        assertThat(container.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo("/q/health/live");
        assertThat(container.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/q/health/ready");
        assertThat(container.path("securityContext").path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(env(container, "QUARKUS_OPERATOR_SDK_NAMESPACES")).isEqualTo("JOSDK_ALL_NAMESPACES");
        assertThat(deployment.path("spec").path("template").path("spec").path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
    }

    @Test
    void watchedNamespacesGetRolesThereOnly() throws IOException {
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .set("watchNamespaces[0]", "team-a").set("watchNamespaces[1]", "team-b").call());
        assertThat(kind(docs, "ClusterRole")).isEmpty();
        Set<String> namespaces = new TreeSet<>();
        kind(docs, "RoleBinding").forEach(b -> namespaces.add(b.path("metadata").path("namespace").asText()));
        assertThat(namespaces).containsExactly("backfill-system", "team-a", "team-b");
        JsonNode container = kind(docs, "Deployment").get(0).path("spec").path("template").path("spec").path("containers").get(0);
        assertThat(env(container, "QUARKUS_OPERATOR_SDK_NAMESPACES")).isEqualTo("team-a,team-b");
    }

    @Test
    void monitoringIsOffByDefault() throws IOException {
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system").call());
        for (String k : List.of("ServiceMonitor", "PodMonitor", "PrometheusRule", "ConfigMap")) {
            assertThat(kind(docs, k)).as(k).isEmpty();
        }
    }

    @Test
    void monitoringValuesRenderAScrapeConfigThatKeepsCampaignLabelsTheRulesAndTheDashboard() throws IOException {
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .set("metrics.serviceMonitor.enabled", "true").set("metrics.serviceMonitor.labels.release", "prom")
                .set("metrics.prometheusRule.enabled", "true").set("metrics.grafanaDashboard.enabled", "true").call());
        JsonNode monitor = kind(docs, "ServiceMonitor").get(0);
        JsonNode service = kind(docs, "Service").get(0);
        assertThat(monitor.path("metadata").path("labels").path("release").asText()).isEqualTo("prom");
        monitor.path("spec").path("selector").path("matchLabels").fields().forEachRemaining(e ->
                assertThat(service.path("metadata").path("labels").path(e.getKey()).asText()).isEqualTo(e.getValue().asText()));
        JsonNode endpoint = monitor.path("spec").path("endpoints").get(0);
        assertThat(endpoint.path("path").asText()).isEqualTo("/q/metrics");
        // The campaign's own `namespace` label must win over the scrape target's.
        assertThat(endpoint.path("honorLabels").asBoolean()).isTrue();
        assertThat(kind(docs, "PodMonitor")).isEmpty();

        assertThat(kind(docs, "PrometheusRule").get(0).path("spec").path("groups").get(0).path("rules")).hasSize(5);

        JsonNode dashboard = YAML.readTree(kind(docs, "ConfigMap").get(0).path("data").path("backfill-operator.json").asText());
        List<String> titles = new ArrayList<>();
        dashboard.path("panels").forEach(p -> titles.add(p.path("title").asText()));
        assertThat(titles).anyMatch(t -> t.startsWith("Progress")).anyMatch(t -> t.startsWith("Rate"))
                .anyMatch(t -> t.startsWith("ETA")).anyMatch(t -> t.startsWith("Chunk duration")).anyMatch(t -> t.startsWith("Failures"));

        List<JsonNode> pods = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .set("metrics.podMonitor.enabled", "true").call());
        assertThat(kind(pods, "PodMonitor").get(0).path("spec").path("podMetricsEndpoints").get(0).path("honorLabels").asBoolean()).isTrue();
    }

    static List<JsonNode> render(String manifests) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (YAMLParser parser = new YAMLFactory().createParser(manifests)) {
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode n = it.next();
                if (n != null && n.has("kind")) {
                    docs.add(n);
                }
            }
        }
        return docs;
    }

    static List<JsonNode> kind(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
    }

    static List<String> rules(JsonNode role) {
        List<String> out = new ArrayList<>();
        for (JsonNode rule : role.path("rules")) {
            Set<String> verbs = new TreeSet<>();
            rule.path("verbs").forEach(v -> verbs.add(v.asText()));
            for (JsonNode group : rule.path("apiGroups")) {
                for (JsonNode resource : rule.path("resources")) {
                    out.add(group.asText() + "/" + resource.asText() + ":" + String.join(",", verbs));
                }
            }
        }
        return out;
    }

    static String env(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (name.equals(e.path("name").asText())) {
                return e.path("value").asText();
            }
        }
        return null;
    }
}

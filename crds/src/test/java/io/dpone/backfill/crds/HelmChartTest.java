package io.dpone.backfill.crds;

import io.dpone.backfill.testsupport.RepositoryRoot;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The operator's chart lints, renders, and grants the operator exactly what it uses, nothing more. */
class HelmChartTest {
    static final Path CHART = RepositoryRoot.resolve("helm", "backfill-operator");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void chartLintsCleanly() {
        LintResult result = new Helm(CHART).lint().strict().call();
        assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
    }

    @Test
    void defaultValuesWatchTheReleaseNamespaceAloneAndRenderNoClusterRoleThatReadsSecrets() throws IOException {
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system").call());

        for (JsonNode role : kind(docs, "ClusterRole")) {
            assertThat(rules(role)).as("a ClusterRole reading Secrets in every namespace").noneMatch(r -> r.startsWith("/secrets:"));
        }
        assertThat(kind(docs, "ClusterRoleBinding")).isEmpty();
        List<JsonNode> campaignRoles = kind(docs, "Role").stream()
                .filter(r -> !r.path("metadata").path("name").asText().endsWith("leader-election")).toList();
        assertThat(campaignRoles).singleElement().satisfies(role -> {
            assertThat(role.path("metadata").path("namespace").asText()).isEqualTo("backfill-system");
            assertThat(rules(role)).containsExactlyInAnyOrderElementsOf(OperatorApiCalls.rules(OperatorApiCalls.CAMPAIGN_NAMESPACES));
        });
        JsonNode container = kind(docs, "Deployment").get(0).path("spec").path("template").path("spec").path("containers").get(0);
        assertThat(env(container, "QUARKUS_OPERATOR_SDK_NAMESPACES")).as("what the operator watches matches what it may read")
                .isEqualTo("backfill-system");
    }

    @Test
    void clusterWideIsAnExplicitChoiceThatRendersAClusterRoleReadingSecretsAndNotesSayingWhatItGrants() throws IOException {
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .set("clusterWide", "true").call());

        assertThat(kind(docs, "ClusterRole")).singleElement().satisfies(role -> assertThat(rules(role)).contains("/secrets:get", "/pods:create,delete,list,watch"));
        JsonNode container = kind(docs, "Deployment").get(0).path("spec").path("template").path("spec").path("containers").get(0);
        assertThat(env(container, "QUARKUS_OPERATOR_SDK_NAMESPACES")).isEqualTo("JOSDK_ALL_NAMESPACES");
        assertThat(notes(t -> t.set("clusterWide", "true"))).contains("watching ALL namespaces")
                .contains("get Secrets and create pods in EVERY namespace");
        assertThat(notes(t -> t)).contains("watching backfill-system only").doesNotContain("EVERY namespace");
    }

    @Test
    void clusterWideGetsAClusterRoleWithTheMinimalRules() throws IOException {
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .set("clusterWide", "true").call());
        JsonNode role = kind(docs, "ClusterRole").get(0);
        assertThat(rules(role)).containsExactlyInAnyOrderElementsOf(OperatorApiCalls.rules(OperatorApiCalls.CAMPAIGN_NAMESPACES));
        JsonNode leader = kind(docs, "Role").stream().filter(r -> r.path("metadata").path("name").asText().endsWith("leader-election"))
                .findFirst().orElseThrow();
        assertThat(rules(leader)).containsExactlyInAnyOrderElementsOf(OperatorApiCalls.rules(OperatorApiCalls.OWN_NAMESPACE));
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
    void theListOfApiCallsHoldsExactlyTheCallsInTheOperatorsCode() throws IOException {
        Set<String> listed = new TreeSet<>();
        OperatorApiCalls.CAMPAIGN_NAMESPACES.stream().filter(OperatorApiCalls.Call::ours).forEach(c -> listed.add(c.resource() + ":" + c.verb()));
        assertThat(OperatorApiCalls.scanOperatorSources()).isEqualTo(listed);
    }

    @Test
    void watchedNamespacesGetRolesThereOnly() throws IOException {
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .set("watchNamespaces[0]", "team-a").set("watchNamespaces[1]", "team-b").call());
        assertThat(kind(docs, "ClusterRole")).isEmpty();
        Set<String> namespaces = new TreeSet<>();
        kind(docs, "RoleBinding").forEach(b -> namespaces.add(b.path("metadata").path("namespace").asText()));
        assertThat(namespaces).containsExactly("backfill-system", "team-a", "team-b");
        for (JsonNode role : kind(docs, "Role")) {
            String ns = role.path("metadata").path("namespace").asText();
            assertThat(rules(role)).as(ns).containsExactlyInAnyOrderElementsOf(OperatorApiCalls.rules(
                    role.path("metadata").path("name").asText().endsWith("leader-election") ? OperatorApiCalls.OWN_NAMESPACE
                            : OperatorApiCalls.CAMPAIGN_NAMESPACES));
        }
        assertThat(kind(docs, "Role")).hasSize(3);
        JsonNode container = kind(docs, "Deployment").get(0).path("spec").path("template").path("spec").path("containers").get(0);
        assertThat(env(container, "QUARKUS_OPERATOR_SDK_NAMESPACES")).isEqualTo("team-a,team-b");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cluster-wide-values.yaml", "namespaced-values.yaml", "ha-monitoring-values.yaml"})
    void everyShippedValuesSetRendersAHardenedOperator(String values) throws IOException {
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .withValuesFile(CHART.resolve("ci").resolve(values)).call());
        assertThat(docs).allSatisfy(d -> assertThat(d.path("metadata").path("name").asText()).isNotBlank());
        JsonNode pod = kind(docs, "Deployment").get(0).path("spec").path("template").path("spec");
        JsonNode container = pod.path("containers").get(0);
        assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.path("securityContext").path("seccompProfile").path("type").asText()).isEqualTo("RuntimeDefault");
        JsonNode sc = container.path("securityContext");
        assertThat(sc.path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(sc.path("allowPrivilegeEscalation").asBoolean()).isFalse();
        assertThat(sc.path("capabilities").path("drop").toString()).isEqualTo("[\"ALL\"]");
        assertThat(container.path("resources").path("limits").path("memory").asText()).isNotBlank();
        assertThat(container.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo("/q/health/live");
        assertThat(container.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/q/health/ready");
        JsonNode pdb = kind(docs, "PodDisruptionBudget").get(0);
        int replicas = kind(docs, "Deployment").get(0).path("spec").path("replicas").asInt();
        // Only the leader is Ready: the budget must still let it go, or a drain of its node never ends.
        assertThat(pdb.path("spec").path("maxUnavailable").asInt()).isGreaterThanOrEqualTo(replicas);
    }

    @Test
    void laneDefaultsReachTheOperatorAndTheLaneServiceAccountHasNoToken() throws IOException {
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .withValuesFile(CHART.resolve("ci").resolve("namespaced-values.yaml")).call());
        JsonNode container = kind(docs, "Deployment").get(0).path("spec").path("template").path("spec").path("containers").get(0);
        assertThat(env(container, "BACKFILL_OPERATOR_LANE_IMAGE")).isEqualTo("registry.example.com/backfill-lane:0.1.0");
        assertThat(env(container, "BACKFILL_OPERATOR_LANE_ALLOWED_IMAGES")).isEqualTo("registry.example.com/backfill-lane:0.1.1");
        assertThat(env(container, "BACKFILL_OPERATOR_LANE_SERVICE_ACCOUNT")).isEqualTo("backfill-lane");
        assertThat(env(container, "BACKFILL_OPERATOR_LANE_CPU_REQUEST")).isEqualTo("1");
        assertThat(env(container, "BACKFILL_OPERATOR_LANE_MEMORY_LIMIT")).isEqualTo("4Gi");
        List<JsonNode> laneAccounts = kind(docs, "ServiceAccount").stream()
                .filter(a -> a.path("metadata").path("name").asText().equals("backfill-lane")).toList();
        assertThat(laneAccounts).extracting(a -> a.path("metadata").path("namespace").asText()).containsExactlyInAnyOrder("team-a", "team-b");
        assertThat(laneAccounts).allSatisfy(a -> assertThat(a.path("automountServiceAccountToken").asBoolean(true)).isFalse());
        // No binding names the lane account: it has no API access at all.
        for (String k : List.of("RoleBinding", "ClusterRoleBinding")) {
            kind(docs, k).forEach(b -> b.path("subjects").forEach(sub ->
                    assertThat(sub.path("name").asText()).isEqualTo("backfill-operator")));
        }
        List<JsonNode> defaults = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system").call());
        JsonNode plain = kind(defaults, "Deployment").get(0).path("spec").path("template").path("spec").path("containers").get(0);
        assertThat(env(plain, "BACKFILL_OPERATOR_LANE_SERVICE_ACCOUNT")).isNull();
        assertThat(env(plain, "BACKFILL_OPERATOR_LANE_ALLOWED_IMAGES")).as("by default lane.image alone").isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "three replicas|replicas|3",
            "zero replicas|replicas|0",
            "root lanes|lane.runAsUser|0",
            "bad namespace|watchNamespaces[0]|Team_A",
            "bad pull policy|image.pullPolicy|Sometimes",
            "unknown value|colour|red",
            "bad memory|lane.resources.limits.memory|lots",
            // apimachinery pkg/api/resource/quantity.go: suffixes are Ki Mi Gi Ti Pi Ei (binary), k M G T P E
            // (decimal) or an exponent; "K" is none of them and the API server refuses the pod
            "memory suffix K|resources.limits.memory|512K",
            "lane memory suffix K|lane.resources.requests.memory|1K",
            "memory in milli-bytes|lane.resources.limits.memory|512m",
            "bad cpu|resources.requests.cpu|fast",
            "bad duration|activePoll|five",
            "bad SLO|metrics.prometheusRule.etaSloSeconds|soon",
            "bad runbook|metrics.prometheusRule.runbookBaseUrl|runbook.md",
            // joined with ',' into one variable: a comma or a space would split or corrupt a reference
            "two images in one|lane.allowedImages[0]|a:1\\,b:2",
            "an image with a space|lane.allowedImages[0]|a b:1",
    })
    void theSchemaRejectsBadValues(String label, String key, String value) {
        assertThatThrownBy(() -> new Helm(CHART).template().withName("bf").withNamespace("backfill-system").set(key, value).call())
                .as(label).hasMessageContaining("schema");
    }

    @Test
    void theSchemaRejectsCombinationsThatCannotWork() {
        // two replicas and a budget that would hold the (only Ready) leader
        assertThatThrownBy(() -> new Helm(CHART).template().withName("bf").set("replicas", "2").call()).hasMessageContaining("schema");
        // scraping both the Service and the pods stores every sample twice
        assertThatThrownBy(() -> new Helm(CHART).template().withName("bf").set("metrics.serviceMonitor.enabled", "true")
                .set("metrics.podMonitor.enabled", "true").call()).hasMessageContaining("schema");
        // a lane service account created in every namespace of the cluster
        assertThatThrownBy(() -> new Helm(CHART).template().withName("bf").set("lane.serviceAccount.create", "true")
                .set("lane.serviceAccount.name", "backfill-lane").set("clusterWide", "true").call()).hasMessageContaining("schema");
        // cluster-wide and a list of namespaces: which one was meant?
        assertThatThrownBy(() -> new Helm(CHART).template().withName("bf").set("clusterWide", "true")
                .set("watchNamespaces[0]", "team-a").call()).hasMessageContaining("schema");
        assertThat(new Helm(CHART).template().withName("bf").set("replicas", "2").set("podDisruptionBudget.maxUnavailable", "2").call())
                .contains("kind: PodDisruptionBudget");
    }

    @Test
    void validQuantitiesAndTheGlobalKeyHelmPassesToSubchartsAreAccepted() throws IOException {
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .set("resources.limits.memory", "1.5Gi").set("lane.resources.limits.memory", "2e9")
                .set("lane.resources.requests.memory", "512M").set("global.imageRegistry", "registry.example.com").call());
        JsonNode container = kind(docs, "Deployment").get(0).path("spec").path("template").path("spec").path("containers").get(0);
        assertThat(container.path("resources").path("limits").path("memory").asText()).isEqualTo("1.5Gi");
    }

    @Test
    void clusterScopedObjectsAreNamedPerReleaseSoTwoReleasesDoNotShareThem() throws IOException {
        List<JsonNode> one = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system").set("clusterWide", "true").call());
        List<JsonNode> two = render(new Helm(CHART).template().withName("bf2").withNamespace("backfill-two").set("clusterWide", "true").call());
        String role1 = kind(one, "ClusterRole").get(0).path("metadata").path("name").asText();
        String role2 = kind(two, "ClusterRole").get(0).path("metadata").path("name").asText();
        assertThat(role1).isNotEqualTo(role2).contains("backfill-system").contains("bf");
        JsonNode binding = kind(one, "ClusterRoleBinding").get(0);
        assertThat(binding.path("metadata").path("name").asText()).isNotEqualTo(kind(two, "ClusterRoleBinding").get(0).path("metadata").path("name").asText());
        assertThat(binding.path("roleRef").path("name").asText()).isEqualTo(role1);
        // Roles in watched namespaces live outside the release namespace too
        List<JsonNode> namespaced = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .set("watchNamespaces[0]", "team-a").call());
        JsonNode teamRole = kind(namespaced, "Role").stream().filter(r -> r.path("metadata").path("namespace").asText().equals("team-a")).findFirst().orElseThrow();
        JsonNode teamBinding = kind(namespaced, "RoleBinding").stream().filter(r -> r.path("metadata").path("namespace").asText().equals("team-a")).findFirst().orElseThrow();
        assertThat(teamRole.path("metadata").path("name").asText()).isEqualTo(role1);
        assertThat(teamBinding.path("roleRef").path("name").asText()).isEqualTo(role1);
        assertThat(teamBinding.path("subjects").get(0).path("name").asText()).isEqualTo("backfill-operator");
    }

    @Test
    void monitoringObjectsAreSkippedWhereTheClusterDoesNotServeTheirApi() throws IOException {
        // helm template without --api-versions shows only built-in APIs, as a cluster without the Prometheus Operator
        // does (.Capabilities.APIVersions): installing a ServiceMonitor there fails the whole release.
        List<JsonNode> docs = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .set("metrics.serviceMonitor.enabled", "true").set("metrics.prometheusRule.enabled", "true")
                .set("metrics.grafanaDashboard.enabled", "true").call());
        for (String k : List.of("ServiceMonitor", "PodMonitor", "PrometheusRule")) {
            assertThat(kind(docs, k)).as(k).isEmpty();
        }
        assertThat(kind(docs, "ConfigMap")).as("the dashboard needs no CRD").hasSize(1);
        List<JsonNode> assumed = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .set("metrics.serviceMonitor.enabled", "true").set("metrics.prometheusRule.enabled", "true")
                .set("metrics.assumeMonitoringApi", "true").call());
        assertThat(kind(assumed, "ServiceMonitor")).hasSize(1);
        assertThat(kind(assumed, "PrometheusRule")).hasSize(1);
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
                .set("metrics.assumeMonitoringApi", "true")
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

        assertThat(kind(docs, "PrometheusRule").get(0).path("spec").path("groups").get(0).path("rules")).hasSize(8);

        JsonNode dashboard = YAML.readTree(kind(docs, "ConfigMap").get(0).path("data").path("backfill-operator.json").asText());
        List<String> titles = new ArrayList<>();
        dashboard.path("panels").forEach(p -> titles.add(p.path("title").asText()));
        assertThat(titles).anyMatch(t -> t.startsWith("Progress")).anyMatch(t -> t.startsWith("Rate"))
                .anyMatch(t -> t.startsWith("ETA")).anyMatch(t -> t.startsWith("Chunk duration")).anyMatch(t -> t.startsWith("Failures"));

        List<JsonNode> pods = render(new Helm(CHART).template().withName("bf").withNamespace("backfill-system")
                .set("metrics.podMonitor.enabled", "true").set("metrics.assumeMonitoringApi", "true").call());
        assertThat(kind(pods, "PodMonitor").get(0).path("spec").path("podMetricsEndpoints").get(0).path("honorLabels").asBoolean()).isTrue();
    }

    /** The install notes, as `helm install` prints them (a client-only dry run: no cluster needed). */
    static String notes(java.util.function.UnaryOperator<com.marcnuri.helm.InstallCommand> values) {
        return values.apply(new Helm(CHART).install().withName("bf").withNamespace("backfill-system").clientOnly().dryRun())
                .call().getOutput();
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

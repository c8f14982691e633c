package io.dpone.backfill.operator.resource;

import io.dpone.backfill.testsupport.RepositoryRoot;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dpone.backfill.core.campaign.CampaignDocument;
import io.dpone.backfill.core.campaign.CampaignMetadata;
import io.dpone.backfill.core.validation.CampaignValidator;
import io.dpone.backfill.operator.support.MockCluster;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.admission.CampaignAdmission;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The committed CRD holds writes to what a real API server admits: its OpenAPI schema and its CEL rules, evaluated
 * with {@code dev.cel:cel} as kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go
 * does (a rule naming {@code oldSelf} runs only on an update that has an old value). The mock cluster of every
 * operator test applies the same admission ({@link MockCluster#admission}); these tests pin the rules themselves.
 */
class CrdAdmissionTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Path EXAMPLES = RepositoryRoot.resolve("examples");
    private final CampaignAdmission api = CampaignAdmission.of(MockCluster.CRD);

    @Test
    void theExamplesAndEveryGitOpsOverlayAreAdmitted() throws IOException {
        List<Path> examples;
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            examples = files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(examples).isNotEmpty();
        for (Path example : examples) {
            assertThat(api.create(YAML.readTree(example.toFile()))).as(example.toString()).isEmpty();
        }
        JsonNode base = YAML.readTree(EXAMPLES.resolve("gitops/base/campaign.yaml").toFile());
        assertThat(api.create(base)).as("gitops base").isEmpty();
        List<Path> overlays;
        try (Stream<Path> dirs = Files.list(EXAMPLES.resolve("gitops/overlays"))) {
            overlays = dirs.sorted().toList();
        }
        assertThat(overlays).isNotEmpty();
        for (Path overlay : overlays) {
            // kustomize applies a strategic-merge patch to a custom resource as a JSON merge patch (no schema).
            JsonNode rendered = merge(base.deepCopy(), YAML.readTree(overlay.resolve("campaign-env.yaml").toFile()));
            ((ObjectNode) rendered.get("metadata")).put("namespace", YAML.readTree(overlay.resolve("kustomization.yaml").toFile()).path("namespace").asText());
            assertThat(api.create(rendered)).as(overlay.toString()).isEmpty();
        }
    }

    @Test
    void theCampaignTheOperatorTestsBuildIsAdmitted() {
        assertThat(api.create(json(PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, "  suspend: true\n")))).isEmpty();
    }

    @Test
    void theSchemaRefusesWhatTheApiServerRefusesNamingTheField() {
        Map<String, Consumer<ObjectNode>> bad = new LinkedHashMap<>();
        bad.put("spec.chunk.buckets", s -> ((ObjectNode) s.get("chunk")).put("buckets", 0));
        bad.put("spec.parallelWorkers", s -> s.put("parallelWorkers", 65));
        bad.put("spec.target", s -> s.remove("target"));
        bad.put("spec.surprise", s -> s.put("surprise", true));
        bad.put("spec.backfillId", s -> s.put("backfillId", "-starts-with-a-dash"));
        bad.put("spec.target.type", s -> ((ObjectNode) s.get("target")).put("type", "oracle"));
        bad.put("spec.maxChunkAttempts", s -> s.put("maxChunkAttempts", "five"));
        bad.put("spec.lane.resources.limits.memory", s -> s.putObject("lane").putObject("resources").putObject("limits").put("memory", "1K"));
        bad.put("spec.uniqueKey", s -> s.putArray("uniqueKey"));
        for (Map.Entry<String, Consumer<ObjectNode>> c : bad.entrySet()) {
            ObjectNode campaign = json(PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, ""));
            c.getValue().accept((ObjectNode) campaign.get("spec"));
            assertThat(api.create(campaign)).as(c.getKey()).isNotEmpty().allMatch(e -> e.startsWith(c.getKey()));
        }
    }

    @Test
    void theCrdRefusesExactlyTheCampaignNamesTheOperatorRefuses() {
        List<String> names = List.of("orders", "orders-v1", "a", "0rders", "orders.v1", "Orders", "orders_v1", "-orders", "orders-",
                "orders--v1", "x".repeat(45), "x".repeat(46), "a.b", "ördérs");
        List<String> disagreements = new ArrayList<>();
        for (String name : names) {
            ObjectNode campaign = json(PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, ""));
            ((ObjectNode) campaign.get("metadata")).put("name", name);
            boolean crdAdmits = api.create(campaign).isEmpty();
            boolean operatorAdmits = operatorNameErrors(name).isEmpty();
            if (crdAdmits != operatorAdmits) {
                disagreements.add(name + " (CRD " + (crdAdmits ? "admits" : "refuses") + ", operator " + (operatorAdmits ? "admits" : "refuses") + ")");
            }
        }
        assertThat(disagreements).as("names the CRD and the operator judge differently").isEmpty();
        ObjectNode dotted = json(PgCampaign.campaign("backfill", "orders.v1", "items_v1", 8, 2, ""));
        assertThat(api.create(dotted)).singleElement().asString().contains("lowercase RFC 1123 label");
    }

    @Test
    void aPlannedCampaignKeepsItsPlanAndPolicyButSuspendAndLaneMayChange() {
        ObjectNode planned = withStatus(json(PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, "")), "Loading", "rk-1", null);

        assertThat(api.update(edit(planned, s -> ((ObjectNode) s.get("target")).put("table", "items_v2")), planned))
                .singleElement().asString().contains("new backfillId").contains("FieldValueForbidden");
        assertThat(api.update(edit(planned, s -> s.put("maxChunkAttempts", 7)), planned)).as("an absent optional field stays absent").isNotEmpty();
        assertThat(api.update(edit(planned, s -> s.put("parallelWorkers", 3)), planned)).isNotEmpty();
        assertThat(api.update(edit(planned, s -> s.put("suspend", true)), planned)).isEmpty();
        assertThat(api.update(edit(planned, s -> s.putObject("lane").put("maxPodFailures", 9)), planned)).isEmpty();
        assertThat(api.update(planned, planned)).as("a re-apply of the same manifest").isEmpty();
    }

    @Test
    void aPublicationGroupIsAdmittedWithADnsLabelAndTwoToAHundredMembersAndNeverChangesOncePlanned() {
        ObjectNode campaign = json(PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, ""));
        Consumer<ObjectNode> grouped = s -> s.with("publication").put("mode", "shadow_swap").putObject("group")
                .put("name", "shop").putArray("members").add("items").add("orders");
        assertThat(api.create(edit(campaign, grouped))).isEmpty();
        assertThat(api.create(edit(campaign, grouped.andThen(s -> ((ObjectNode) s.get("publication").get("group"))
                .put("name", "Shop_DB"))))).singleElement().asString().contains("spec.publication.group.name");
        assertThat(api.create(edit(campaign, grouped.andThen(s -> ((ObjectNode) s.get("publication").get("group"))
                .putArray("members").add("items"))))).singleElement().asString().contains("spec.publication.group.members");

        ObjectNode planned = withStatus(edit(campaign, grouped), "Publishing", "rk-1", null);
        assertThat(api.update(edit(planned, s -> ((ObjectNode) s.get("publication").get("group")).put("name", "other")), planned))
                .as("a planned campaign keeps its group").isNotEmpty();
    }

    @Test
    void aPlannedCampaignsThrottleMayBeSetChangedAndRemovedWhileTheRestStaysImmutable() {
        ObjectNode planned = withStatus(json(PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, "")), "Loading", "rk-1", null);
        ObjectNode throttled = edit(planned, s -> s.putObject("throttle").put("rowsPerSecond", 100000));

        assertThat(api.update(throttled, planned)).as("a ceiling set").isEmpty();
        assertThat(api.update(edit(throttled, s -> ((ObjectNode) s.get("throttle")).put("rowsPerSecond", 5000)
                .put("bytesPerSecond", 20000000)), throttled)).as("a ceiling changed").isEmpty();
        assertThat(api.update(planned, throttled)).as("a ceiling removed").isEmpty();
        assertThat(api.update(edit(throttled, s -> ((ObjectNode) s.get("chunk")).put("buckets", 16)), throttled))
                .as("the plan still is not").singleElement().asString().contains("new backfillId");
        assertThat(api.update(edit(planned, s -> s.putObject("throttle").put("rowsPerSecond", 0)), planned))
                .as("the schema bounds a ceiling").singleElement().asString().contains("spec.throttle.rowsPerSecond");
    }

    @Test
    void specReconcileIsAdmittedAsTheOperatorReadsItAndRefusedNamingTheFieldOtherwise() {
        ObjectNode campaign = json(PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, ""));
        Map<String, Consumer<ObjectNode>> good = new LinkedHashMap<>();
        good.put("none", s -> s.putObject("reconcile").put("mode", "none"));
        good.put("once", s -> s.putObject("reconcile").put("mode", "once"));
        good.put("until rows", s -> s.putObject("reconcile").put("mode", "until").put("maxChangedRows", 0));
        good.put("until deadline", s -> s.putObject("reconcile").put("mode", "until").put("deadline", "1h30m").put("maxPasses", 3));
        for (Map.Entry<String, Consumer<ObjectNode>> c : good.entrySet()) {
            ObjectNode edited = edit(campaign, c.getValue());
            assertThat(api.create(edited)).as(c.getKey()).isEmpty();
            assertThat(operatorSpecErrors(edited)).as("the operator agrees: " + c.getKey()).isEmpty();
        }
        Map<String, Consumer<ObjectNode>> bad = new LinkedHashMap<>();
        bad.put("spec.reconcile", s -> s.putObject("reconcile").put("mode", "until"));
        bad.put("spec.reconcile ", s -> s.putObject("reconcile").put("mode", "once").put("maxPasses", 2));
        bad.put("spec.reconcile.mode", s -> s.putObject("reconcile").put("mode", "always"));
        bad.put("spec.reconcile.deadline", s -> s.putObject("reconcile").put("mode", "until").put("deadline", "2 hours"));
        bad.put("spec.reconcile.maxPasses", s -> s.putObject("reconcile").put("mode", "until").put("maxChangedRows", 1).put("maxPasses", 101));
        bad.put("spec.reconcile.maxChangedRows", s -> s.putObject("reconcile").put("mode", "until").put("maxChangedRows", -1));
        for (Map.Entry<String, Consumer<ObjectNode>> c : bad.entrySet()) {
            ObjectNode edited = edit(campaign, c.getValue());
            String field = c.getKey().trim();
            assertThat(api.create(edited)).as(c.getKey()).isNotEmpty().allMatch(e -> e.startsWith(field));
            assertThat(operatorSpecErrors(edited)).as("the operator refuses it too: " + c.getKey()).isNotEmpty()
                    .allMatch(e -> e.startsWith(field));
        }

        ObjectNode planned = withStatus(edit(campaign, s -> s.putObject("reconcile").put("mode", "once")), "Loading", "rk-1", null);
        assertThat(api.update(edit(planned, s -> ((ObjectNode) s.get("reconcile")).put("mode", "none")), planned))
                .as("a planned campaign keeps its passes: they decide what the handoff carries").singleElement().asString()
                .contains("new backfillId");
    }

    @Test
    void aCampaignRefusedBeforePlanningCanBeCorrectedInPlace() {
        ObjectNode fresh = json(PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, ""));
        Consumer<ObjectNode> correction = s -> ((ObjectNode) s.get("source")).put("table", "items_fixed");

        assertThat(api.update(edit(fresh, correction), fresh)).as("not yet seen by the operator").isEmpty();
        ObjectNode invalid = withStatus(fresh.deepCopy(), "Invalid", null, null);
        assertThat(api.update(edit(invalid, correction), invalid)).as("refused by validation").isEmpty();
        ObjectNode preflightRefused = withStatus(fresh.deepCopy(), "Blocked", "rk-1", "failed");
        assertThat(api.update(edit(preflightRefused, correction), preflightRefused)).as("refused by pre-flight").isEmpty();
        ObjectNode preflightPassed = withStatus(fresh.deepCopy(), "Loading", "rk-1", "passed");
        assertThat(api.update(edit(preflightPassed, correction), preflightPassed)).as("planned after a passed pre-flight").isNotEmpty();
    }

    @Test
    void aStatusWriteKeepsTheOldSpecAndIsValidatedAgainstTheSchemaToo() {
        ObjectNode planned = withStatus(json(PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, "")), "Loading", "rk-1", null);
        ObjectNode specChangeInStatusWrite = edit(planned, s -> ((ObjectNode) s.get("target")).put("table", "items_v2"));
        assertThat(api.updateStatus(specChangeInStatusWrite, planned)).as("/status ignores the spec in its body").isEmpty();
        ObjectNode badPhase = planned.deepCopy();
        ((ObjectNode) badPhase.get("status")).put("phase", "Exploded");
        assertThat(api.updateStatus(badPhase, planned)).singleElement().asString().startsWith("status.phase: Unsupported value");
    }

    @Test
    void theMockClusterAnswersARefusedWriteWith422AndRecordsIt() {
        try (MockCluster cluster = new MockCluster("backfill")) {
            var campaign = PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, "");
            campaign.getSpec().getChunk().setBuckets(0);
            assertThatThrownBy(() -> cluster.client.resource(campaign).create()).isInstanceOf(KubernetesClientException.class)
                    .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
                    .hasMessageContaining("spec.chunk.buckets");

            campaign.getSpec().getChunk().setBuckets(8);
            cluster.client.resource(campaign).create();
            var resource = cluster.client.resources(BackfillCampaign.class).inNamespace("backfill").withName("items");
            resource.editStatus(c -> {
                c.setStatus(new io.dpone.backfill.core.campaign.BackfillCampaignStatus());
                c.getStatus().setRunKey("rk-1");
                return c;
            });
            String changeTable = "{\"spec\":{\"target\":{\"table\":\"items_v2\"}}}";
            assertThatThrownBy(() -> resource.patch(PatchContext.of(PatchType.JSON_MERGE), changeTable))
                    .isInstanceOf(KubernetesClientException.class).hasMessageContaining("new backfillId");
            resource.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":true}}");
            assertThat(resource.get().getSpec().getSuspend()).isTrue();
            assertThat(cluster.admission.takeRefusals()).hasSize(2);
        }
    }

    /** What the operator's own validation (the CLI's reader, the same model) says of a campaign's spec. */
    private static List<String> operatorSpecErrors(ObjectNode campaign) {
        ObjectNode document = campaign.deepCopy();
        document.remove("status");
        ((ObjectNode) document.get("metadata")).retain("name", "namespace");
        try {
            io.dpone.backfill.core.manifest.CampaignReader.parse(document.toString());
            return List.of();
        } catch (io.dpone.backfill.core.validation.CampaignRejectedException e) {
            return e.errors().stream().map(Object::toString).toList();
        }
    }

    private static List<String> operatorNameErrors(String name) {
        CampaignDocument doc = new CampaignDocument();
        doc.setApiVersion(CampaignDocument.API_VERSION);
        doc.setKind(CampaignDocument.KIND);
        CampaignMetadata metadata = new CampaignMetadata();
        metadata.setName(name);
        metadata.setNamespace("backfill");
        doc.setMetadata(metadata);
        doc.setSpec(PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, "").getSpec());
        return CampaignValidator.validate(doc).stream().filter(e -> e.path().equals("metadata.name")).map(Object::toString).toList();
    }

    private static ObjectNode withStatus(ObjectNode campaign, String phase, String runKey, String preflightResult) {
        ObjectNode status = campaign.putObject("status");
        status.put("phase", phase);
        if (runKey != null) {
            status.put("runKey", runKey);
        }
        if (preflightResult != null) {
            status.putObject("preflight").put("result", preflightResult);
        }
        return campaign;
    }

    private static ObjectNode edit(ObjectNode campaign, Consumer<ObjectNode> specChange) {
        ObjectNode copy = campaign.deepCopy();
        specChange.accept((ObjectNode) copy.get("spec"));
        return copy;
    }

    private static ObjectNode json(Object resource) {
        return (ObjectNode) new ObjectMapper().valueToTree(Serialization.jsonMapper().convertValue(resource, Map.class));
    }

    private static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject() || !target.isObject()) {
            return patch;
        }
        patch.fields().forEachRemaining(f -> ((ObjectNode) target).set(f.getKey(),
                target.has(f.getKey()) ? merge(target.get(f.getKey()), f.getValue()) : f.getValue()));
        return target;
    }
}

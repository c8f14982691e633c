package io.dpone.backfill.operator.lanes;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignDefinition;
import io.dpone.backfill.core.campaign.ImagePullPolicy;
import io.dpone.backfill.core.campaign.LaneResources;
import io.dpone.backfill.core.campaign.LaneSpec;
import io.dpone.backfill.core.campaign.ResourceAmounts;
import io.dpone.backfill.core.campaign.SpecDefaults;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.operator.config.OperatorSettings;
import io.dpone.backfill.operator.reconciler.SpecGate;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.dpone.backfill.operator.support.admission.PodRules;
import io.dpone.backfill.postgres.PostgresEndpoint;
import io.dpone.backfill.targets.mssql.MssqlEndpoint;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every lane pod the operator builds is one a real cluster admits: the API server's pod rules and the Pod Security
 * "restricted" profile ({@link PodRules}, with the Kubernetes sources it follows), over the operator's defaults and
 * the lane settings a campaign can give. Requests and limits in particular: a value left to the operator's defaults
 * moves to the given one (ADR 0030), and both given and incoherent is refused by validation naming the field.
 */
class LanePodRulesTest {
    /** A campaign's own lane image, pinned by digest: one its installer allowed (LaneImages). */
    private static final String DIGEST_IMAGE = "registry.example.com/team/backfill@sha256:" + "a".repeat(64);
    /** The operator's shipped defaults (OperatorConfig): requests 500m / 1Gi, limits 2 / 2Gi. */
    private static final OperatorSettings SHIPPED = new OperatorSettings("op", TestOperator.settings("op").timings(),
            new OperatorSettings.LaneDefaults("ghcr.io/dpone/backfill:1.0", "IfNotPresent", List.of("backfill"),
                    new ResourceAmounts("500m", "1Gi"), new ResourceAmounts("2", "2Gi"), "backfill-lane", 65532, java.util.Set.of(DIGEST_IMAGE)),
            Map.of("JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=75"), Duration.ofMillis(500), Duration.ofSeconds(2));

    @Test
    void everyLanePodTheOperatorBuildsPassesTheApiServerAndTheRestrictedProfile() {
        Map<String, Consumer<LaneSpec>> lanes = new LinkedHashMap<>();
        lanes.put("defaults", l -> { });
        lanes.put("a memory limit below the default request (the issue's 512Mi)", l -> l.setResources(resources(null, null, null, "512Mi")));
        lanes.put("a cpu limit below the default request", l -> l.setResources(resources(null, null, "250m", null)));
        lanes.put("a cpu request above the default limit", l -> l.setResources(resources("4", null, null, null)));
        lanes.put("a memory request above the default limit", l -> l.setResources(resources(null, "3Gi", null, null)));
        lanes.put("everything given, coherent", l -> l.setResources(resources("1", "1Gi", "1", "1Gi")));
        lanes.put("node selector, image and pull policy", l -> {
            l.setNodeSelector(Map.of("node.kubernetes.io/pool", "etl", "zone", "eu-1a"));
            l.setImage(DIGEST_IMAGE);
            l.setImagePullPolicy(ImagePullPolicy.ALWAYS);
        });
        for (OperatorSettings settings : List.of(SHIPPED, TestOperator.allowing(TestOperator.settings("op"), DIGEST_IMAGE))) {
            for (Map.Entry<String, Consumer<LaneSpec>> c : lanes.entrySet()) {
                for (String name : List.of("items", "x".repeat(45))) {
                    BackfillCampaign campaign = PgCampaign.campaign("backfill", name, "items_v1", 8, 64, "");
                    LaneSpec lane = new LaneSpec();
                    c.getValue().accept(lane);
                    campaign.getSpec().setLane(lane);
                    assertThat(operatorErrors(campaign)).as(c.getKey()).isEmpty();
                    for (Pod pod : List.of(pod(settings, campaign, 63, 999, false), pod(settings, campaign, 0, 1, true))) {
                        assertThat(PodRules.apiServer(pod)).as(c.getKey() + " " + pod.getMetadata().getName()).isEmpty();
                        assertThat(PodRules.restricted(pod)).as(c.getKey() + " " + pod.getMetadata().getName()).isEmpty();
                    }
                }
            }
        }
    }

    @Test
    void aLimitBelowTheDefaultRequestLowersTheRequestAndARequestAboveTheDefaultLimitRaisesTheLimit() {
        BackfillCampaign campaign = PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, "");
        LaneSpec lane = new LaneSpec();
        lane.setResources(resources("4", null, null, "512Mi"));
        campaign.getSpec().setLane(lane);
        var r = pod(SHIPPED, campaign, 0, 1, false).getSpec().getContainers().get(0).getResources();
        assertThat(r.getRequests().get("memory").toString()).as("default 1Gi lowered to the given limit").isEqualTo("512Mi");
        assertThat(r.getLimits().get("memory").toString()).isEqualTo("512Mi");
        assertThat(r.getRequests().get("cpu").toString()).isEqualTo("4");
        assertThat(r.getLimits().get("cpu").toString()).as("default 2 raised to the given request").isEqualTo("4");
    }

    @Test
    void aRequestGivenAboveItsGivenLimitIsRefusedNamingTheField() {
        BackfillCampaign campaign = PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, "");
        LaneSpec lane = new LaneSpec();
        lane.setResources(resources("2", "2Gi", "1", "1Gi"));
        campaign.getSpec().setLane(lane);
        assertThat(operatorErrors(campaign)).containsExactly(
                "spec.lane.resources.requests.cpu", "spec.lane.resources.requests.memory");
    }

    @Test
    void theRulesThemselvesRefuseWhatTheServerRefuses() {
        Pod pod = pod(SHIPPED, PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, ""), 0, 1, false);
        var c = pod.getSpec().getContainers().get(0);
        c.getResources().getRequests().put("cpu", new io.fabric8.kubernetes.api.model.Quantity("3"));
        c.getSecurityContext().setAllowPrivilegeEscalation(null);
        pod.getMetadata().getLabels().put("bad key!", "v");
        assertThat(PodRules.apiServer(pod)).anyMatch(e -> e.contains("must be less than or equal to cpu limit of 2"))
                .anyMatch(e -> e.contains("bad key!"));
        assertThat(PodRules.restricted(pod)).singleElement().asString().contains("allowPrivilegeEscalation");
    }

    /** What the operator's own validation says of the campaign (the same gate the reconciler applies). */
    private static List<String> operatorErrors(BackfillCampaign campaign) {
        return SpecGate.errors(campaign).stream().map(e -> e.path()).toList();
    }

    private static Pod pod(OperatorSettings settings, BackfillCampaign campaign, int lane, int attempt, boolean mssql) {
        campaign.getMetadata().setUid("0b5e7c4e-8a1f-4d2e-9f0a-3c6d2b1a0e99");
        BackfillCampaignSpec spec = SpecDefaults.apply(campaign.getSpec());
        String runKey = CampaignBlueprint.of(new CampaignDefinition(campaign.getMetadata().getName(), "backfill", spec)).identity().runKey();
        ConnectionSecret target = mssql
                ? new ConnectionSecret("warehouse-mssql.prod", Set.of("host", "port", "database", "user", "password"), MssqlEndpoint.INSTANCE)
                : new ConnectionSecret("tgt-db", Set.of("jdbcUrl", "user", "password"), PostgresEndpoint.INSTANCE);
        return new LanePodFactory(settings).build(campaign, spec, runKey, lane, attempt,
                new ConnectionSecret("src-db", Set.of("jdbcUrl", "username", "password"), PostgresEndpoint.INSTANCE), target);
    }

    private static LaneResources resources(String cpuRequest, String memoryRequest, String cpuLimit, String memoryLimit) {
        LaneResources r = new LaneResources();
        if (cpuRequest != null || memoryRequest != null) {
            r.setRequests(new ResourceAmounts(cpuRequest, memoryRequest));
        }
        if (cpuLimit != null || memoryLimit != null) {
            r.setLimits(new ResourceAmounts(cpuLimit, memoryLimit));
        }
        return r;
    }
}

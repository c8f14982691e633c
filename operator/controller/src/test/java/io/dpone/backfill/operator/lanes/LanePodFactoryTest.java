package io.dpone.backfill.operator.lanes;

import io.dpone.backfill.core.campaign.CampaignDefinition;
import io.dpone.backfill.core.campaign.LaneResources;
import io.dpone.backfill.core.campaign.LaneSpec;
import io.dpone.backfill.core.campaign.ResourceAmounts;
import io.dpone.backfill.core.campaign.SpecDefaults;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.dpone.backfill.postgres.PostgresEndpoint;
import io.dpone.backfill.targets.mssql.MssqlEndpoint;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class LanePodFactoryTest {
    private final LanePodFactory factory = new LanePodFactory(TestOperator.settings("op"));

    private Pod pod(BackfillCampaign campaign, Set<String> sourceKeys) {
        campaign.getMetadata().setUid("uid-1");
        var spec = SpecDefaults.apply(campaign.getSpec());
        String runKey = CampaignBlueprint.of(new CampaignDefinition("items", "ns", spec)).identity().runKey();
        return factory.build(campaign, spec, runKey, 2, 5, new ConnectionSecret("src-db", sourceKeys, PostgresEndpoint.INSTANCE),
                new ConnectionSecret("tgt-db", Set.of("jdbcUrl", "user", "password"), PostgresEndpoint.INSTANCE));
    }

    @Test
    void aLanePodRunsBackfillLaneWithItsIndexAndRunKeyOwnedByTheCampaign() {
        BackfillCampaign campaign = PgCampaign.campaign("ns", "items", "items_v1", 8, 4, "");
        Pod pod = pod(campaign, Set.of("jdbcUrl", "user", "password"));
        assertThat(pod.getMetadata().getName()).isEqualTo("items-lane-2-5");
        assertThat(pod.getMetadata().getLabels()).containsEntry(LaneLabels.CAMPAIGN, "items").containsEntry(LaneLabels.LANE, "2")
                .containsEntry(LaneLabels.ATTEMPT, "5").containsKey(LaneLabels.RUN_KEY);
        assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getUid()).isEqualTo("uid-1");
            assertThat(o.getKind()).isEqualTo("BackfillCampaign");
            assertThat(o.getController()).isTrue();
        });
        Container c = pod.getSpec().getContainers().get(0);
        assertThat(c.getCommand()).containsExactly("backfill");
        assertThat(c.getArgs()).containsExactly("lane", "--run-key", pod.getMetadata().getLabels().get(LaneLabels.RUN_KEY), "--lane", "2",
                "--state-schema", "backfill_state", "--target-type", "postgres");
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
    }

    @Test
    void credentialsComeOnlyFromSecretKeyRefsAndTheLaneHasNoApiAccess() {
        Pod pod = pod(PgCampaign.campaign("ns", "items", "items_v1", 8, 4, ""), Set.of("jdbcUrl", "username", "password"));
        List<EnvVar> env = pod.getSpec().getContainers().get(0).getEnv();
        for (EnvVar v : env.stream().filter(v -> v.getName().matches("BACKFILL_(SOURCE|TARGET)_.*")).toList()) {
            assertThat(v.getValueFrom()).as(v.getName()).isNotNull();
            assertThat(v.getValueFrom().getSecretKeyRef()).as(v.getName()).isNotNull();
            assertThat(v.getValue()).as(v.getName()).isNull();
        }
        assertThat(env).anySatisfy(v -> {
            assertThat(v.getName()).isEqualTo("BACKFILL_SOURCE_USER");
            assertThat(v.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("username");
        });
        assertThat(env).extracting(EnvVar::getName).contains("BACKFILL_LEASE_TTL_SECONDS");
        assertThat(pod.getSpec().getAutomountServiceAccountToken()).isFalse();
    }

    @Test
    void aHostPortDatabaseSecretGetsItsUrlComposedByTheKubelet() {
        Pod pod = pod(PgCampaign.campaign("ns", "items", "items_v1", 8, 4, ""), Set.of("host", "database", "user"));
        Map<String, EnvVar> env = new java.util.HashMap<>();
        pod.getSpec().getContainers().get(0).getEnv().forEach(v -> env.put(v.getName(), v));
        assertThat(env.get("BACKFILL_SOURCE_JDBC_URL").getValue())
                .isEqualTo("jdbc:postgresql://$(BACKFILL_SOURCE_HOST):$(BACKFILL_SOURCE_PORT)/$(BACKFILL_SOURCE_DATABASE)");
        assertThat(env.get("BACKFILL_SOURCE_HOST").getValueFrom().getSecretKeyRef().getKey()).isEqualTo("host");
        assertThat(env.get("BACKFILL_SOURCE_PORT").getValue()).isEqualTo("5432");
        assertThat(env).doesNotContainKey("BACKFILL_SOURCE_PASSWORD");
    }

    @Test
    void aSqlServerSecretWithHostPortAndDatabaseComposesAJdbcSqlserverUrlForThePod() {
        ConnectionSecret target = new ConnectionSecret("tgt-db", Set.of("host", "database", "user", "password"),
                MssqlEndpoint.INSTANCE);
        Map<String, EnvVar> env = new java.util.HashMap<>();
        target.environment("TARGET").forEach(v -> env.put(v.getName(), v));
        assertThat(env.get("BACKFILL_TARGET_JDBC_URL").getValue())
                .isEqualTo("jdbc:sqlserver://$(BACKFILL_TARGET_HOST):$(BACKFILL_TARGET_PORT);databaseName=$(BACKFILL_TARGET_DATABASE)");
        assertThat(env.get("BACKFILL_TARGET_PORT").getValue()).isEqualTo("1433");
        assertThat(env.get("BACKFILL_TARGET_PASSWORD").getValueFrom().getSecretKeyRef().getKey()).isEqualTo("password");
    }

    @Test
    void lanesRunAsNonRootOnAReadOnlyRootFilesystem() {
        Pod pod = pod(PgCampaign.campaign("ns", "items", "items_v1", 8, 4, ""), Set.of("jdbcUrl"));
        assertThat(pod.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSpec().getSecurityContext().getRunAsUser()).isEqualTo(65532L);
        var sc = pod.getSpec().getContainers().get(0).getSecurityContext();
        assertThat(sc.getReadOnlyRootFilesystem()).isTrue();
        assertThat(sc.getAllowPrivilegeEscalation()).isFalse();
        assertThat(sc.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(pod.getSpec().getContainers().get(0).getVolumeMounts()).anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"));
    }

    @Test
    void resourcesComeFromTheSpecAndOtherwiseFromOperatorDefaults() {
        BackfillCampaign campaign = PgCampaign.campaign("ns", "items", "items_v1", 8, 4, "");
        LaneSpec lane = new LaneSpec();
        LaneResources resources = new LaneResources();
        resources.setRequests(new ResourceAmounts("2", null));
        lane.setResources(resources);
        lane.setNodeSelector(Map.of("pool", "etl"));
        campaign.getSpec().setLane(lane);
        Pod pod = pod(campaign, Set.of("jdbcUrl"));
        var r = pod.getSpec().getContainers().get(0).getResources();
        assertThat(r.getRequests().get("cpu").toString()).isEqualTo("2");
        assertThat(r.getRequests().get("memory").toString()).isEqualTo("256Mi");
        // The given request is above the default limit (1): the API server refuses request > limit, so the
        // defaulted limit follows the request (LanePodRulesTest holds every pod to the server's rules).
        assertThat(r.getLimits().get("cpu").toString()).isEqualTo("2");
        assertThat(r.getLimits().get("memory").toString()).isEqualTo("512Mi");
        assertThat(pod.getSpec().getNodeSelector()).containsEntry("pool", "etl");
    }

    @Test
    void aPodIsNeverBuiltFromAnImageTheOperatorDoesNotAllowWhateverTheCaller() {
        // The reconciler refuses such a campaign first (LaneImagesIT); this is the guard behind it.
        BackfillCampaign campaign = PgCampaign.campaign("ns", "items", "items_v1", 8, 4, "");
        LaneSpec lane = new LaneSpec();
        lane.setImage("attacker.example/collect-credentials:latest");
        campaign.getSpec().setLane(lane);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> pod(campaign, Set.of("jdbcUrl", "user", "password")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("attacker.example/collect-credentials:latest");
    }
}

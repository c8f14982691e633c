package io.dpone.backfill.operator.quarkus;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.config.OperatorSettings;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

/**
 * The packaged wiring under Quarkus (QOSDK, SmallRye Health, Micrometer) against the mock API server: the CRD is
 * applied at start, configuration reaches the reconciler, health means something, metrics are exported. The
 * reconciler's behaviour is tested on plain JOSDK (the *IT suites); this only proves the application assembles.
 */
@QuarkusTest
@QuarkusTestResource(MockApiServerResource.class)
class OperatorApplicationTest {
    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    @Test
    void theCrdGeneratedAtBuildTimeIsAppliedAtStart() {
        var crd = client.apiextensions().v1().customResourceDefinitions().withName("backfillcampaigns.backfill.dpone.io").get();
        assertThat(crd).isNotNull();
        assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("bfc");
        assertThat(crd.getSpec().getVersions().get(0).getAdditionalPrinterColumns()).extracting(c -> c.getName())
                .containsExactlyInAnyOrder("Phase", "Chunks", "Rows", "Rate", "ETA", "Ready", "Reason", "Group", "Passes", "Queued", "Age");
    }

    @Test
    void configurationReachesTheOperatorWithItsDefaults() {
        assertThat(settings.instanceId()).isEqualTo("quarkus-test");
        assertThat(settings.activePoll()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.progressInterval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(settings.lanes().command()).containsExactly("backfill");
        assertThat(settings.lanes().requests().getCpu()).isEqualTo("500m");
        assertThat(settings.lanes().runAsUser()).isEqualTo(65532L);
        assertThat(settings.lanes().allowedImages()).as("lanes from the lane image alone").containsExactly(settings.lanes().image());
        assertThat(settings.timings().leaseTtl()).isEqualTo(Duration.ofSeconds(90));
    }

    @Inject
    io.javaoperatorsdk.operator.Operator operator;

    @Test
    void withoutTheChartsSettingTheOperatorWatchesItsOwnNamespaceAloneAsTheChartsDefaultRoleAllows() {
        // The chart's default renders a Role in the release namespace only (HelmChartTest); the client's namespace
        // stands for the pod's own here (MockApiServerResource).
        var controller = operator.getRegisteredController(io.dpone.backfill.operator.reconciler.BackfillCampaignReconciler.NAME).orElseThrow();
        assertThat(controller.getConfiguration().getInformerConfig().watchCurrentNamespace()).isTrue();
        assertThat(controller.getConfiguration().getEffectiveNamespaces()).containsExactly(MockApiServerResource.NAMESPACE);
    }

    @Test
    void theConsoleLogIsScrubbedOfCredentials() {
        // The filter itself: CredentialLogFilterTest. Quarkus refuses to start with a filter name it does not know.
        assertThat(org.eclipse.microprofile.config.ConfigProvider.getConfig().getValue("quarkus.log.console.filter", String.class))
                .isEqualTo(io.dpone.backfill.operator.logging.CredentialLogFilter.NAME);
    }

    @Test
    void healthIsReadyOnceInformersAreSyncedAndLiveWhileLeasesAreRenewed() throws Exception {
        Await.until(Duration.ofSeconds(30), () -> given().get("/q/health/ready").statusCode() == 200,
                () -> given().get("/q/health/ready").asString());
        given().get("/q/health/ready").then().statusCode(200).body(containsString("backfill-informers"));
        given().get("/q/health/live").then().statusCode(200).body(containsString("backfill-lease-keeper"));
    }

    @Test
    void theReconcilerRunsUnderQuarkusAndExportsCampaignMetrics() throws Exception {
        // The CRD admits it (the mock server applies its schema and CEL rules); the operator's own rules refuse it.
        BackfillCampaign bad = PgCampaign.campaign(MockApiServerResource.NAMESPACE, "wired", "wired_v1", 8, 2, "  onlyNewRows: true\n");
        client.resource(bad).create();
        Await.until(Duration.ofSeconds(30), () -> {
            BackfillCampaign c = client.resources(BackfillCampaign.class).inNamespace(MockApiServerResource.NAMESPACE).withName("wired").get();
            return c.getStatus() != null && c.getStatus().getPhase() == CampaignPhase.Invalid;
        }, () -> "the campaign was not marked Invalid");
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("backfill_campaign_chunks"))
                .body(containsString("campaign=\"wired\""));
    }
}

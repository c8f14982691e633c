package io.dpone.backfill.operator.quarkus;

import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.rbac.ChartRbac;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

/**
 * The packaged wiring with leader election on, as in the prod profile: QOSDK takes our LeaderElectionConfiguration
 * (with Leadership's callbacks), JOSDK's pre-flight SelfSubjectRulesReview passes under the chart's RBAC, and the
 * replica that leads is Ready. When the application stops after this class, QOSDK stops the operator and leadership
 * stops; LeaderElection.onStop runs first, so Leadership does not exit: with JOSDK's exitOnStopLeading, or with our
 * observer after QOSDK's, System.exit would end this test JVM (surefire then reports a crashed fork).
 */
@QuarkusTest
@TestProfile(LeaderElectedApplicationTest.Elected.class)
@QuarkusTestResource(MockApiServerResource.class)
class LeaderElectedApplicationTest {
    public static class Elected implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.operator-sdk.activate-leader-election-for-profiles", "test",
                    "backfill.operator.leader-election-namespace", ChartRbac.RELEASE_NAMESPACE);
        }
    }

    @Inject
    KubernetesClient client;

    @Inject
    Leadership leadership;

    @Test
    void theLeaderIsReadyAndHoldsTheLease() throws Exception {
        Await.until(Duration.ofSeconds(30), () -> given().get("/q/health/ready").statusCode() == 200,
                () -> given().get("/q/health/ready").asString());
        given().get("/q/health/ready").then().statusCode(200).body(containsString("\"leader\": \"true\""));
        assertThat(leadership.leading()).isTrue();
        var lease = client.leases().inNamespace(ChartRbac.RELEASE_NAMESPACE).withName("backfill-operator-leader").get();
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("quarkus-test");
    }
}

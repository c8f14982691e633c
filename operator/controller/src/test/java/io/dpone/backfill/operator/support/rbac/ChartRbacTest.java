package io.dpone.backfill.operator.support.rbac;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The chart's RBAC as the evaluator reads it: what it allows, and where (the operator tests rely on it). */
class ChartRbacTest {
    private static ApiRequest req(String method, String uri) {
        return ApiRequest.of(method, uri);
    }

    @Test
    void theLeaseIsRenewedByPatchInTheReleaseNamespaceOnly() {
        for (ChartRbac rbac : ChartRbac.renderings().values()) {
            assertThat(rbac.allows(req("PATCH", "/apis/coordination.k8s.io/v1/namespaces/backfill-system/leases/backfill-operator-leader"))).isTrue();
            assertThat(rbac.allows(req("GET", "/apis/coordination.k8s.io/v1/namespaces/backfill-system/leases/backfill-operator-leader"))).isTrue();
            assertThat(rbac.allows(req("POST", "/apis/coordination.k8s.io/v1/namespaces/backfill-system/leases"))).isTrue();
            assertThat(rbac.allows(req("PATCH", "/apis/coordination.k8s.io/v1/namespaces/elsewhere/leases/backfill-operator-leader"))).isFalse();
            assertThat(rbac.allows(req("DELETE", "/apis/coordination.k8s.io/v1/namespaces/backfill-system/leases/backfill-operator-leader"))).isFalse();
        }
    }

    @Test
    void secretsAreReadByNameNeverListedAndPodsAreNeverPatched() {
        for (ChartRbac rbac : ChartRbac.renderings().values()) {
            assertThat(rbac.refused(List.of(req("GET", "/api/v1/namespaces/team-a/secrets/pg")), "team-a")).isEmpty();
            assertThat(rbac.refused(List.of(req("GET", "/api/v1/namespaces/team-a/secrets")), "team-a")).isNotEmpty();
            assertThat(rbac.refused(List.of(req("PATCH", "/api/v1/namespaces/team-a/pods/lane-0")), "team-a")).isNotEmpty();
            assertThat(rbac.refused(List.of(req("PATCH", "/apis/backfill.dpone.io/v1alpha1/namespaces/team-a/backfillcampaigns/c/status")), "team-a")).isEmpty();
        }
    }

    @Test
    void inNamespacedModeTheCampaignRulesHoldOnlyInTheWatchedNamespaces() {
        ChartRbac namespaced = ChartRbac.renderings().get("namespaced-values.yaml");
        assertThat(namespaced.allows(req("POST", "/api/v1/namespaces/team-a/pods"))).isTrue();
        assertThat(namespaced.allows(req("POST", "/api/v1/namespaces/team-c/pods"))).isFalse();
        // a test's campaign namespace stands for each watched namespace
        assertThat(namespaced.refused(List.of(req("POST", "/api/v1/namespaces/backfill/pods")), "backfill")).isEmpty();
        // by default, the release namespace alone; every namespace only where clusterWide was chosen
        assertThat(ChartRbac.renderings().get("defaults").allows(req("POST", "/api/v1/namespaces/team-c/pods"))).isFalse();
        assertThat(ChartRbac.renderings().get("defaults").allows(req("GET", "/api/v1/namespaces/team-c/secrets/pg"))).isFalse();
        assertThat(ChartRbac.renderings().get("defaults").allows(req("POST", "/api/v1/namespaces/backfill-system/pods"))).isTrue();
        assertThat(ChartRbac.renderings().get("cluster-wide-values.yaml").allows(req("POST", "/api/v1/namespaces/team-c/pods"))).isTrue();
    }

    @Test
    void everyAuthenticatedAccountMayReviewItsOwnRulesAndReadDiscovery() {
        ChartRbac rbac = ChartRbac.renderings().get("defaults");
        assertThat(rbac.allows(req("POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews"))).isTrue();
        assertThat(rbac.allows(req("GET", "/version"))).isTrue();
        assertThat(rbac.allows(req("GET", "/metrics"))).isFalse();
    }
}

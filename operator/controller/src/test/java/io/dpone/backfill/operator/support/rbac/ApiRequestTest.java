package io.dpone.backfill.operator.support.rbac;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The verb, resource and namespace the API server's authorizer sees for a request (kubernetes/kubernetes
 * staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go), which the RBAC contract of the operator tests
 * relies on.
 */
class ApiRequestTest {
    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "GET|/apis/coordination.k8s.io/v1/namespaces/ops/leases/leader|get|coordination.k8s.io|leases||ops|leader",
            "PATCH|/apis/coordination.k8s.io/v1/namespaces/ops/leases/leader|patch|coordination.k8s.io|leases||ops|leader",
            "PUT|/apis/coordination.k8s.io/v1/namespaces/ops/leases/leader|update|coordination.k8s.io|leases||ops|leader",
            "POST|/apis/coordination.k8s.io/v1/namespaces/ops/leases|create|coordination.k8s.io|leases||ops|",
            "GET|/api/v1/namespaces/team/pods?labelSelector=a%3Db&resourceVersion=0|list||pods||team|",
            "GET|/api/v1/namespaces/team/pods?allowWatchBookmarks=true&watch=true|watch||pods||team|",
            "GET|/api/v1/namespaces/team/pods?watch=false|list||pods||team|",
            "GET|/api/v1/watch/namespaces/team/pods|watch||pods||team|",
            "DELETE|/api/v1/namespaces/team/pods/lane-0|delete||pods||team|lane-0",
            "DELETE|/api/v1/namespaces/team/pods|deletecollection||pods||team|",
            "PATCH|/apis/backfill.dpone.io/v1alpha1/namespaces/team/backfillcampaigns/c1/status|patch|backfill.dpone.io|backfillcampaigns|status|team|c1",
            "GET|/api/v1/namespaces/team|get||namespaces||team|team",
            "GET|/apis/backfill.dpone.io/v1alpha1/backfillcampaigns|list|backfill.dpone.io|backfillcampaigns||| ",
    })
    void theAuthorizerSeesTheVerbResourceAndNamespaceOfARequest(String method, String uri, String verb, String group, String resource,
                                                                 String subresource, String namespace, String name) {
        ApiRequest r = ApiRequest.of(method, uri);
        assertThat(r.resourceRequest()).isTrue();
        assertThat(r.verb()).isEqualTo(verb);
        assertThat(r.apiGroup()).isEqualTo(group == null ? "" : group);
        assertThat(r.resource()).isEqualTo(resource);
        assertThat(r.subresource()).isEqualTo(subresource == null ? "" : subresource);
        assertThat(r.namespace()).isEqualTo(namespace == null ? "" : namespace);
        assertThat(r.name()).isEqualTo(name == null ? "" : name.trim());
    }

    @ParameterizedTest
    @CsvSource({"GET,/version", "GET,/apis", "GET,/apis/backfill.dpone.io/v1alpha1", "GET,/api/v1"})
    void pathsOutsideResourcesAreNonResourceRequests(String method, String uri) {
        ApiRequest r = ApiRequest.of(method, uri);
        assertThat(r.resourceRequest()).isFalse();
        assertThat(r.verb()).isEqualTo("get");
    }
}

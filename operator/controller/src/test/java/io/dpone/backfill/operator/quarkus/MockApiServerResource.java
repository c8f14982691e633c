package io.dpone.backfill.operator.quarkus;

import io.dpone.backfill.operator.support.MockCluster;
import io.dpone.backfill.operator.support.admission.AdmittingDispatcher;
import io.dpone.backfill.operator.support.admission.CampaignAdmission;
import io.dpone.backfill.operator.support.rbac.ChartRbac;
import io.dpone.backfill.operator.support.rbac.RecordingDispatcher;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.HashMap;
import java.util.Map;

/**
 * Fabric8's mock API server (CRUD) for the Quarkus application under test; QOSDK applies the CRD to it at start.
 * BackfillCampaign writes pass the committed CRD's schema and CEL rules, as in every MockCluster. It answers SelfSubjectRulesReviews from the chart's RBAC (RecordingDispatcher), so leader election can start, and has
 * the chart's release namespace for the Lease.
 */
public class MockApiServerResource implements QuarkusTestResourceLifecycleManager {
    static final String NAMESPACE = "backfill";
    private KubernetesMockServer server;

    @Override
    public Map<String, String> start() {
        server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(), new MockWebServer(), new HashMap<>(),
                new RecordingDispatcher(new AdmittingDispatcher(CampaignAdmission.of(MockCluster.CRD), "backfillcampaigns")), false);
        server.init();
        // Rendered before the application starts: JOSDK's SelfSubjectRulesReview is answered from these, and a first
        // rendering inside that request can outlast the client's 10 s request timeout on a loaded machine.
        ChartRbac.renderings();
        try (KubernetesClient client = server.createClient()) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ChartRbac.RELEASE_NAMESPACE).endMetadata().build()).create();
            return Map.of(
                    "quarkus.kubernetes-client.api-server-url", client.getConfiguration().getMasterUrl(),
                    "quarkus.kubernetes-client.trust-certs", "true",
                    "quarkus.kubernetes-client.namespace", NAMESPACE);
        }
    }

    @Override
    public void stop() {
        if (server != null) {
            server.destroy();
        }
    }
}

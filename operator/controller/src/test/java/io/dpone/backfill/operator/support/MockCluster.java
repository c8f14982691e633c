package io.dpone.backfill.operator.support;

import io.dpone.backfill.testsupport.RepositoryRoot;
import io.dpone.backfill.operator.support.admission.AdmittingDispatcher;
import io.dpone.backfill.operator.support.admission.CampaignAdmission;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.dpone.backfill.operator.support.rbac.ApiRequest;
import io.dpone.backfill.operator.support.rbac.ChartRbac;
import io.dpone.backfill.operator.support.rbac.RecordingDispatcher;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Fabric8's mock API server in CRUD mode with the committed CRD registered (so the status subresource works) and a
 * namespace for the test, and the API server's admission of BackfillCampaign writes (schema and CEL rules). It has
 * no scheduler and no kubelet: {@link LaneRunner} plays the kubelet for lane pods. It enforces no RBAC either, so
 * every request the operator's client ({@link #operatorClient}) makes is recorded and, when the cluster closes,
 * checked against the RBAC the Helm chart renders ({@link ChartRbac}): a request the chart would not allow fails the
 * test, as a real API server would answer it 403.
 */
public final class MockCluster implements AutoCloseable {
    public static final Path CRD = RepositoryRoot.resolve("crds", "backfillcampaigns.backfill.dpone.io-v1.yml");

    public final KubernetesMockServer server;
    public final KubernetesClient client;
    public final String namespace;
    /** Every BackfillCampaign write goes through the API server's schema and CEL rules (support/admission). */
    public final AdmittingDispatcher admission = new AdmittingDispatcher(CampaignAdmission.of(CRD), "backfillcampaigns");
    /** In front of admission, as authorization is in front of admission on a real API server. */
    private final RecordingDispatcher recorder = new RecordingDispatcher(admission);

    public MockCluster(String namespace) {
        this.server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), recorder, false);
        this.server.init();
        this.client = server.createClient();
        this.namespace = namespace;
        try (InputStream in = Files.newInputStream(CRD)) {
            CustomResourceDefinition crd = client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + CRD, e);
        }
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
    }

    /**
     * A client for an operator under test: its requests are the operator's (recorded and held to the chart's RBAC).
     * Derived from {@code client} (this cluster's or one made from it); the caller closes it.
     */
    public static KubernetesClient operatorClient(KubernetesClient client) {
        return new KubernetesClientBuilder().withConfig(new ConfigBuilder(client.getConfiguration())
                .withUserAgent(RecordingDispatcher.OPERATOR_USER_AGENT).build()).build();
    }

    /** Every request the operators' clients made so far. */
    public List<ApiRequest> operatorRequests() {
        return recorder.recorded();
    }

    /** The operator requests that some rendering of the chart would refuse (403 on a real cluster). */
    public List<String> refusedByChartRbac() {
        List<ApiRequest> requests = recorder.recorded();
        List<String> refused = new ArrayList<>();
        ChartRbac.renderings().values().forEach(r -> refused.addAll(r.refused(requests, namespace)));
        return refused;
    }

    @Override
    public void close() {
        try {
            List<String> refused = refusedByChartRbac();
            if (!refused.isEmpty()) {
                throw new AssertionError("The operator made requests the chart's RBAC does not allow (a real API server answers 403):\n  "
                        + String.join("\n  ", refused));
            }
            // A write a real API server refuses fails the test even if the code under test swallowed the 422; a test
            // that expects refusals takes them (admission.takeRefusals()) before closing.
            List<String> rejected = admission.refusals();
            if (!rejected.isEmpty()) {
                throw new AssertionError("the API server would refuse these BackfillCampaign writes:\n" + String.join("\n", rejected));
            }
        } finally {
            client.close();
            server.destroy();
        }
    }
}

package io.dpone.backfill.operator.support;

import io.dpone.backfill.operator.support.admission.AdmittingDispatcher;
import io.dpone.backfill.operator.support.admission.CampaignAdmission;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;

/**
 * Fabric8's mock API server in CRUD mode with the committed CRD registered (so the status subresource works) and a
 * namespace for the test, and the API server's admission of BackfillCampaign writes (schema and CEL rules). It has
 * no scheduler and no kubelet: {@link LaneRunner} plays the kubelet for lane pods.
 */
public final class MockCluster implements AutoCloseable {
    public static final Path CRD = Path.of("..", "crds", "backfillcampaigns.backfill.dpone.io-v1.yml");

    public final KubernetesMockServer server;
    public final KubernetesClient client;
    public final String namespace;
    /** Every BackfillCampaign write goes through the API server's schema and CEL rules (support/admission). */
    public final AdmittingDispatcher admission = new AdmittingDispatcher(CampaignAdmission.of(CRD), "backfillcampaigns");

    public MockCluster(String namespace) {
        this.server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), admission, false);
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

    @Override
    public void close() {
        client.close();
        server.destroy();
        // A write a real API server refuses fails the test even if the code under test swallowed the 422; a test
        // that expects refusals takes them (admission.takeRefusals()) before closing.
        List<String> refused = admission.refusals();
        if (!refused.isEmpty()) {
            throw new AssertionError("the API server would refuse these BackfillCampaign writes:\n" + String.join("\n", refused));
        }
    }
}

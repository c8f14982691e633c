package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine.Option;

/** The kubectl flags every plugin command takes: where the campaign lives. */
public final class ClusterOptions {
    @Option(names = {"-n", "--namespace"}, description = "Namespace of the campaign (default: the kubeconfig context's, else default).")
    String namespace;

    @Option(names = "--context", description = "kubeconfig context to use (default: the current one).")
    String context;

    String namespace(KubernetesClient client) {
        if (namespace != null && !namespace.isBlank()) {
            return namespace;
        }
        String configured = client.getNamespace();
        return configured == null || configured.isBlank() ? "default" : configured;
    }
}

package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/** How the plugin reaches a cluster: the user's kubeconfig, as kubectl does, or (in tests) a given API server. */
@FunctionalInterface
public interface ClusterConnector {
    /** A new client for {@code context} (null: the kubeconfig's current context); the caller closes it. */
    KubernetesClient connect(String context);

    /** KUBECONFIG or ~/.kube/config, in-cluster service account otherwise, exactly as Fabric8 auto-configures. */
    ClusterConnector KUBECONFIG = context -> new KubernetesClientBuilder()
            .withConfig(context == null ? Config.autoConfigure(null) : Config.autoConfigure(context)).build();
}

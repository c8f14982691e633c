package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.Map;
import java.util.concurrent.Callable;

/**
 * One declarative request on a campaign: read it, patch only what differs from the request (so re-running the
 * command is a no-op), say what changed and what the operator does next.
 */
public abstract class CampaignActionCommand implements Callable<Integer> {
    @ParentCommand
    KubectlCommand plugin;

    @Mixin
    ClusterOptions cluster;

    @Parameters(index = "0", paramLabel = "NAME", description = "The BackfillCampaign's name.")
    String name;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The merge patch that makes the campaign carry this request, or null when it already does. */
    abstract String patch(GenericKubernetesResource campaign);

    /** What was requested, for the user; {@code changed} is false when the campaign already carried it. */
    abstract String outcome(boolean changed);

    @Override
    public Integer call() {
        try (KubernetesClient client = plugin.connector.connect(cluster.context)) {
            String namespace = cluster.namespace(client);
            GenericKubernetesResource campaign = Campaigns.get(client, namespace, name);
            String patch = patch(campaign);
            if (patch != null) {
                Campaigns.mergePatch(client, namespace, name, patch);
            }
            spec.commandLine().getOut().println("backfillcampaign " + namespace + "/" + name + ": " + outcome(patch != null));
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    static String annotation(GenericKubernetesResource campaign, String key) {
        Map<String, String> a = campaign.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    static Object specValue(GenericKubernetesResource campaign, String field) {
        Object spec = campaign.getAdditionalProperties().get("spec");
        return spec instanceof Map<?, ?> m ? m.get(field) : null;
    }
}

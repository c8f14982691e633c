package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/**
 * {@code kubectl backfill status NAME}: phase, conditions, a progress bar, rows, rate, ETA, lane pods and their
 * states, receipts, recent Events and the recommended action, from the cluster alone (no database access).
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show a BackfillCampaign from the cluster: phase, progress, rate, ETA, lanes, receipts, events, next action. Read-only.")
public final class CampaignStatusCommand implements Callable<Integer> {
    @ParentCommand
    KubectlCommand plugin;

    @Mixin
    ClusterOptions cluster;

    @Parameters(index = "0", paramLabel = "NAME", description = "The BackfillCampaign's name.")
    String name;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (KubernetesClient client = plugin.connector.connect(cluster.context)) {
            CampaignSnapshot snapshot = CampaignSnapshot.read(client, cluster.namespace(client), name);
            spec.commandLine().getOut().print(StatusReport.render(snapshot));
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}

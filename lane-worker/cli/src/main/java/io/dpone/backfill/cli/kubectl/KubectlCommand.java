package io.dpone.backfill.cli.kubectl;


import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code backfill kubectl ...}: the commands of the kubectl plugin. Installed as {@code kubectl-backfill} (a script
 * on PATH that runs {@code backfill kubectl "$@"}), they read like {@code kubectl backfill status NAME}. They work on
 * the cluster's BackfillCampaigns, unlike {@code backfill status campaign.yaml}, which reads a ledger directly.
 */
@Command(name = "kubectl", mixinStandardHelpOptions = true,
        description = "The kubectl plugin: `kubectl backfill status|plan|suspend|resume|requeue|rollback|publish` on the cluster's BackfillCampaigns.",
        subcommands = {CampaignStatusCommand.class, ManifestPlanCommand.class, SuspendCommand.class, ResumeCommand.class,
                RequeueCommand.class, RollbackRequestCommand.class, PublishRequestCommand.class,
                ThrottleRequestCommand.class})
public final class KubectlCommand implements Runnable {
    final ClusterConnector connector;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public KubectlCommand() {
        this(ClusterConnector.KUBECONFIG);
    }

    public KubectlCommand(ClusterConnector connector) {
        this.connector = connector;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }
}

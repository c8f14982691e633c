package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kubectl backfill rollback NAME --reason "..."}: asks the operator to swap the retained backup back in, with
 * the reason as the annotation's value (recorded in the rollback receipt).
 */
@Command(name = "rollback", mixinStandardHelpOptions = true,
        description = "Swap the retained backup back in as the live table (annotation " + CampaignActions.ROLLBACK
                + "); the reason goes into the rollback receipt. Only a handed-off shadow_swap campaign can roll back.")
public final class RollbackRequestCommand extends CampaignActionCommand {
    @Option(names = "--reason", required = true, description = "Why: recorded in the rollback receipt. The same reason again is a no-op.")
    String reason;

    @Override
    String patch(GenericKubernetesResource campaign) {
        return reason.equals(annotation(campaign, CampaignActions.ROLLBACK)) ? null : CampaignActions.annotate(CampaignActions.ROLLBACK, reason);
    }

    @Override
    String outcome(boolean changed) {
        return (changed ? "rollback requested" : "rollback already requested with this reason") + " (" + CampaignActions.ROLLBACK
                + "); watch `kubectl backfill status` for the RolledBack condition, or a RollbackRefused event.";
    }
}

package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kubectl backfill publish NAME}: approves the swap of a campaign with {@code publication.approval: manual}
 * (issue 28), by the annotation whose value names who approves; the operator records it with the time in the ledger
 * and the publication receipt.
 */
@Command(name = "publish", mixinStandardHelpOptions = true,
        description = "Approve the swap of a validated campaign whose publication.approval is manual (annotation "
                + CampaignActions.APPROVE + "); who and when go into the publication receipt. The first approval stands.")
public final class PublishRequestCommand extends CampaignActionCommand {
    @Option(names = "--by", description = "Who approves, as the receipt records it (default: your user name).")
    String by;

    @Override
    String patch(GenericKubernetesResource campaign) {
        String who = by != null && !by.isBlank() ? by : System.getProperty("user.name");
        return who.equals(annotation(campaign, CampaignActions.APPROVE)) ? null : CampaignActions.annotate(CampaignActions.APPROVE, who);
    }

    @Override
    String outcome(boolean changed) {
        return (changed ? "approval requested" : "approval already requested by the same name") + " ("
                + CampaignActions.APPROVE + "); the operator swaps at its next pass, within the publication window if"
                + " there is one: watch `kubectl backfill status` (publication.approvedBy) or the PublicationApproved event.";
    }
}

package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Instant;

/**
 * {@code kubectl backfill requeue NAME}: asks the operator to re-queue failed chunks (fresh attempt budget) and reset
 * the lane pod failure budget, with a new token in {@value CampaignActions#REQUEUE_FAILED}.
 */
@Command(name = "requeue", mixinStandardHelpOptions = true,
        description = "Re-queue failed chunks of a Recoverable campaign (annotation " + CampaignActions.REQUEUE_FAILED
                + "). The operator handles each token once.")
public final class RequeueCommand extends CampaignActionCommand {
    @Option(names = "--token", description = "The request's token (default: the current epoch second). The same token again is a no-op.")
    String token;

    private String requested;

    @Override
    String patch(GenericKubernetesResource campaign) {
        requested = token != null && !token.isBlank() ? token : Long.toString(Instant.now().getEpochSecond());
        return requested.equals(annotation(campaign, CampaignActions.REQUEUE_FAILED)) ? null
                : CampaignActions.annotate(CampaignActions.REQUEUE_FAILED, requested);
    }

    @Override
    String outcome(boolean changed) {
        return (changed ? "re-queue of failed chunks requested" : "re-queue already requested with this token") + " ("
                + CampaignActions.REQUEUE_FAILED + "=" + requested + "); the operator records "
                + CampaignActions.REQUEUE_FAILED + CampaignActions.DONE_SUFFIX + " when it has handled it.";
    }
}

package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import picocli.CommandLine.Command;

/** {@code kubectl backfill suspend NAME}: {@code spec.suspend: true}; lanes claim no new chunk, running ones drain. */
@Command(name = "suspend", mixinStandardHelpOptions = true,
        description = "Set spec.suspend to true: no new chunk claims; running chunks drain. A no-op when already suspended.")
public final class SuspendCommand extends CampaignActionCommand {
    @Override
    String patch(GenericKubernetesResource campaign) {
        return Boolean.TRUE.equals(specValue(campaign, "suspend")) ? null : CampaignActions.suspend(true);
    }

    @Override
    String outcome(boolean changed) {
        return (changed ? "suspended" : "already suspended") + " (spec.suspend=true). Under GitOps, set spec.suspend: true in Git too,"
                + " or the next sync reverts it.";
    }
}

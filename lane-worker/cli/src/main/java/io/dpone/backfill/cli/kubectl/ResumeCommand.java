package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import picocli.CommandLine.Command;

/** {@code kubectl backfill resume NAME}: {@code spec.suspend: false}. A Recoverable campaign needs {@code requeue}. */
@Command(name = "resume", mixinStandardHelpOptions = true,
        description = "Set spec.suspend to false: lanes claim chunks again. A no-op when not suspended. "
                + "A Recoverable campaign (failed chunks) needs `requeue` instead.")
public final class ResumeCommand extends CampaignActionCommand {
    private String phase;

    @Override
    String patch(GenericKubernetesResource campaign) {
        Object status = campaign.getAdditionalProperties().get("status");
        phase = status instanceof java.util.Map<?, ?> m && m.get("phase") != null ? m.get("phase").toString() : null;
        return Boolean.TRUE.equals(specValue(campaign, "suspend")) ? CampaignActions.suspend(false) : null;
    }

    @Override
    String outcome(boolean changed) {
        return (changed ? "resumed" : "not suspended") + " (spec.suspend=false)"
                + ("Recoverable".equals(phase) ? "; the campaign is Recoverable: fix the cause, then `kubectl backfill requeue`" : "")
                + (changed ? ". Under GitOps, set spec.suspend: false in Git too." : ".");
    }
}

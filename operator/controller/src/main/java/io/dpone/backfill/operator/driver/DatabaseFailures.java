package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.operator.resource.BackfillCampaign;

import java.time.Duration;
import java.util.Optional;

/**
 * A failed database call as an outcome of the pass: transient ones are retried after a back-off (the Degraded
 * condition says why); permanent ones stop the operator asking until a person fixes the cause and sets the retry
 * annotation, with one condition and one Event whose reason names the failure.
 */
final class DatabaseFailures {
    private DatabaseFailures() {
    }

    static DriveOutcome outcome(DatabaseFailureException e, BackfillCampaign campaign, Duration retryAfter,
                                Optional<BackfillCampaignStatus> ledgerView) {
        if (e.isTransient()) {
            return new DriveOutcome.Waiting(e.reason(), e.getMessage(), retryAfter, ledgerView);
        }
        return new DriveOutcome.Refused(e.reason(), e.getMessage(), "fix what the message names (retrying cannot help),"
                + " then: kubectl annotate bfc " + campaign.getMetadata().getName() + " -n " + campaign.getMetadata().getNamespace()
                + " --overwrite " + OperatorActions.RETRY + "=$(date +%s)");
    }
}

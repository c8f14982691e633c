package io.dpone.backfill.core.ledger;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;

import java.util.Optional;

/**
 * What a driver does with the spec's throttle (issue 28): records it in the ledger, with the lanes the driver runs
 * (lanes whose index is at or past that count stop claiming),
 * when the ledger holds another. The operator calls it every pass (a changed spec reaches the lanes within a pass),
 * the local runner when it starts.
 */
public final class ThrottleRecorder {
    private ThrottleRecorder() {
    }

    /** The setting now in force when this call changed it; empty when the ledger already held it. */
    public static Optional<ThrottleSetting> apply(LedgerStore ledger, String runKey, BackfillCampaignSpec normalised) {
        ThrottleSetting wanted = ThrottleSetting.of(normalised.getThrottle(), ThrottleSetting.lanesOf(normalised));
        if (wanted.equals(ledger.throttle(runKey))) {
            return Optional.empty();
        }
        return ledger.recordThrottle(runKey, wanted) ? Optional.of(wanted) : Optional.empty();
    }
}

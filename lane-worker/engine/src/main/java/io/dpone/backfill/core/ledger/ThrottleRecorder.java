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
        ThrottleSetting recorded = ledger.throttle(runKey);
        if (wanted.equals(recorded)) {
            return Optional.empty();
        }
        boolean changed = ledger.recordThrottle(runKey, wanted);
        // A campaign without a ceiling recording its lane count the first time changed nothing anyone throttled.
        boolean news = recorded.limited() || wanted.limited() || recorded.lanes() != ThrottleSetting.NONE.lanes();
        return changed && news ? Optional.of(wanted) : Optional.empty();
    }
}

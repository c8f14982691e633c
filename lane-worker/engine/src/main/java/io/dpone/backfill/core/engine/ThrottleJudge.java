package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.ThrottleStatus;
import io.dpone.backfill.core.ledger.ThrottleSetting;

/**
 * Whether the ceiling holds the lanes back (issue 28), judged from the rate the ledger's counters give: lanes that
 * read at the ceiling are waiting for it. The judgement has hysteresis, so a rate hovering near the bound does not
 * flip the condition (and rewrite the status) every pass.
 */
public final class ThrottleJudge {
    /** At or above this part of the row ceiling the lanes count as held back by it. */
    static final double HELD_BACK = 0.9;
    /** Once held back, they count so until the rate falls below this part. */
    static final double RELEASED = 0.8;

    private ThrottleJudge() {
    }

    /** The status of the ceiling in force; null when none is. */
    public static ThrottleStatus status(ThrottleSetting setting, CampaignPhase phase, double rowsPerSecond,
                                        boolean wasThrottled) {
        return status(setting, java.util.Optional.empty(), phase, rowsPerSecond, wasThrottled);
    }

    /**
     * The same, with a pause of claims (issue 28: the source guard, the load windows), which comes first: while it
     * holds, no lane claims, whatever the ceiling. Null when neither a ceiling nor a pause is in force.
     */
    public static ThrottleStatus status(ThrottleSetting setting, java.util.Optional<io.dpone.backfill.core.ledger.ClaimPause> pause,
                                        CampaignPhase phase, double rowsPerSecond, boolean wasThrottled) {
        if (pause.isPresent() && phase == CampaignPhase.Loading) {
            ThrottleStatus t = new ThrottleStatus();
            t.setRowsPerSecond(setting.rowsPerSecond() > 0 ? setting.rowsPerSecond() : null);
            t.setBytesPerSecond(setting.bytesPerSecond() > 0 ? setting.bytesPerSecond() : null);
            t.setLanes(setting.lanes());
            t.setReason(pause.get().reason());
            t.setMessage("no new chunk claims: " + pause.get().message() + "; running chunks finish");
            return t;
        }
        if (!setting.limited()) {
            return null;
        }
        ThrottleStatus t = new ThrottleStatus();
        t.setRowsPerSecond(setting.rowsPerSecond() > 0 ? setting.rowsPerSecond() : null);
        t.setBytesPerSecond(setting.bytesPerSecond() > 0 ? setting.bytesPerSecond() : null);
        t.setLanes(setting.lanes());
        String ceiling = "the ceiling of " + setting.describe();
        if (phase != CampaignPhase.Loading) {
            t.setReason(ThrottleStatus.BELOW_CEILING);
            t.setMessage("no lane reads in phase " + phase + "; " + ceiling + " applies while loading");
        } else if (setting.rowsPerSecond() == 0) {
            t.setReason(ThrottleStatus.BYTE_CEILING_UNMEASURED);
            t.setMessage("the lanes pace their bytes to " + ceiling + "; the status measures rows, not bytes, a second");
        } else if (rowsPerSecond >= setting.rowsPerSecond() * (wasThrottled ? RELEASED : HELD_BACK)) {
            t.setReason(ThrottleStatus.RATE_CEILING);
            t.setMessage("the lanes read at " + ceiling + " and wait for it between slices of rows");
        } else {
            t.setReason(ThrottleStatus.BELOW_CEILING);
            t.setMessage("the lanes read below " + ceiling);
        }
        return t;
    }
}

package io.dpone.backfill.cli.status;

import io.dpone.backfill.core.campaign.ThrottleStatus;

/** The ceiling in force, as `backfill status` and `kubectl backfill status` print it (issue 28). */
public final class ThrottleText {
    private ThrottleText() {
    }

    /** {@code RateCeiling: the lanes read at the ceiling of 100000 rows/s shared by 4 lanes and wait ...}. */
    public static String of(ThrottleStatus t) {
        return t.getReason() + ": " + t.getMessage();
    }
}

package io.dpone.backfill.core.ledger;

import io.dpone.backfill.core.campaign.ThrottleSpec;

/**
 * The rate ceiling in force for a run, as its campaign row in the ledger holds it (issue 28): rows and bytes a
 * second for the campaign as a whole (0: no ceiling) and how many lanes its driver runs. Lanes run as separate
 * processes, so the ledger is where they learn the ceiling, and where a changed spec or {@code backfill throttle}
 * reaches them while they run. Written without a lease, like an approval: the last writer's ceiling stands.
 */
public record ThrottleSetting(long rowsPerSecond, long bytesPerSecond, int lanes) {
    /** Nothing recorded: no ceiling and no bound on the lanes (a lane never stops for a lane count it never saw). */
    public static final ThrottleSetting NONE = new ThrottleSetting(0, 0, Integer.MAX_VALUE);

    public ThrottleSetting {
        if (rowsPerSecond < 0 || bytesPerSecond < 0) {
            throw new IllegalArgumentException("a ceiling is 0 (none) or positive, got " + rowsPerSecond + " rows/s, "
                    + bytesPerSecond + " bytes/s");
        }
        if (lanes < 1) {
            throw new IllegalArgumentException("a campaign runs at least one lane, got " + lanes);
        }
    }

    /**
     * The lanes a driver runs for {@code spec} (issue 28): {@code throttle.lanes} when given, never more than
     * {@code parallelWorkers}, which is part of the campaign's identity and so cannot change on a running campaign.
     */
    public static int lanesOf(io.dpone.backfill.core.campaign.BackfillCampaignSpec spec) {
        int planned = spec.getParallelWorkers();
        Integer wanted = spec.getThrottle() == null ? null : spec.getThrottle().getLanes();
        return wanted == null ? planned : Math.max(1, Math.min(wanted, planned));
    }

    /** The spec's ceiling (none when the spec has no throttle) for a driver that runs {@code lanes} lanes. */
    public static ThrottleSetting of(ThrottleSpec spec, int lanes) {
        if (spec == null) {
            return new ThrottleSetting(0, 0, lanes);
        }
        return new ThrottleSetting(spec.getRowsPerSecond() == null ? 0 : spec.getRowsPerSecond(),
                spec.getBytesPerSecond() == null ? 0 : spec.getBytesPerSecond(), lanes);
    }

    public boolean limited() {
        return rowsPerSecond > 0 || bytesPerSecond > 0;
    }

    /**
     * The part of the ceiling one lane may use while {@code readers} lanes at most can be reading: the driver's
     * lanes, or fewer once fewer chunks than lanes are left (a lane without a chunk reads nothing, so the others may
     * use its part). 0 stays 0 (no ceiling).
     */
    public ThrottleSetting shareOf(int readers) {
        int sharing = Math.max(1, Math.min(lanes, readers));
        return new ThrottleSetting(rowsPerSecond == 0 ? 0 : Math.max(1, rowsPerSecond / sharing),
                bytesPerSecond == 0 ? 0 : Math.max(1, bytesPerSecond / sharing), 1);
    }

    /** {@code 100000 rows/s, 50000000 bytes/s shared by 4 lanes}, or {@code no ceiling}. */
    public String describe() {
        if (!limited()) {
            return "no ceiling";
        }
        StringBuilder b = new StringBuilder();
        if (rowsPerSecond > 0) {
            b.append(rowsPerSecond).append(" rows/s");
        }
        if (bytesPerSecond > 0) {
            b.append(b.isEmpty() ? "" : ", ").append(bytesPerSecond).append(" bytes/s");
        }
        return b.append(lanes == 1 || lanes == Integer.MAX_VALUE ? "" : " shared by " + lanes + " lanes").toString();
    }
}

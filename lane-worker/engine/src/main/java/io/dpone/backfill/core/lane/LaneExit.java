package io.dpone.backfill.core.lane;

/** Why a lane stopped; the process exit code tells the driver. */
public enum LaneExit {
    /** Every chunk is committed or out of attempts: nothing left for this lane. */
    NOTHING_LEFT(0),
    /** A stop was requested (suspend, known failure) or the campaign left Loading. */
    STOP_REQUESTED(0),
    /** The source or load table changed shape: the engine blocks the campaign. */
    DRIFT(3);

    private final int exitCode;

    LaneExit(int exitCode) {
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}

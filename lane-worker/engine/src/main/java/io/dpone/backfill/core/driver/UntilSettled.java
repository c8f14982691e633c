package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.engine.NextAction;
import io.dpone.backfill.core.engine.StepResult;

import java.time.Duration;

/**
 * The CLI's pass: steps again until the campaign settles, or until it waits for the other members of its
 * publication group, which load in their own runs (ADR 0041): this run lets go of its lease and exits. Between
 * rounds it waits the engine's requeue, but no longer than until a lane exits (a finished load validates at once).
 */
public final class UntilSettled implements PassEnd {
    /** Waits up to a duration, returning early once a lane has exited. */
    @FunctionalInterface
    public interface LaneExitWait {
        void await(Duration max) throws InterruptedException;
    }

    private final LaneExitWait laneExit;

    public UntilSettled(LaneExitWait laneExit) {
        this.laneExit = laneExit;
    }

    @Override
    public boolean stepAgain(StepResult last) throws InterruptedException {
        if (last.settled() || last.next() instanceof NextAction.AwaitGroup) {
            return false;
        }
        laneExit.await(last.requeueAfter());
        return true;
    }
}

package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.engine.StepResult;

/**
 * How a host's pass ends, the one way the hosts truly differ in stepping: the CLI steps until the campaign settles
 * or must wait for its group ({@link UntilSettled}); the operator runs one round per reconcile and returns a
 * requeue ({@link #ONE_ROUND}), because a pod's exit or a spec change wakes it again.
 */
@FunctionalInterface
public interface PassEnd {
    PassEnd ONE_ROUND = last -> false;

    /** After a round that ended on {@code last}: true to step again (having waited as the host waits), false to end. */
    boolean stepAgain(StepResult last) throws InterruptedException;
}

package io.dpone.backfill.core.driver;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the driver loop relies on from every {@link LaneFleet}: the CLI's process groups, the operator's pods and the
 * {@link FakeFleet} the loop's tests use. Each implementation runs it with lanes of its own kind.
 */
public abstract class LaneFleetContract {
    /** A fleet whose lanes run until they are stopped, with a failure budget of {@code budget}. */
    protected abstract LaneFleet runningLanes(int budget) throws Exception;

    /** A fleet whose every lane fails once started (exits non-zero, a pod's container fails). */
    protected abstract LaneFleet failingLanes(int budget) throws Exception;

    /** How many of {@code fleet}'s lanes run now, as the host observes them. */
    protected abstract int running(LaneFleet fleet) throws Exception;

    /** Returns once every lane {@code fleet} started has failed and may be asked for again. */
    protected abstract void awaitFailures(LaneFleet fleet) throws Exception;

    @Test
    void keepingLanesWithinTheBudgetStartsThemAndSaysNothing() throws Exception {
        LaneFleet fleet = runningLanes(0);

        assertThat(fleet.keep(2)).isEmpty();

        assertThat(running(fleet)).isEqualTo(2);
    }

    @Test
    void keepingFewerLanesLeavesTheOthersAloneForThemToStopThemselves() throws Exception {
        LaneFleet fleet = runningLanes(0);
        fleet.keep(2);

        assertThat(fleet.keep(1)).isEmpty();

        assertThat(running(fleet)).isEqualTo(2);
    }

    @Test
    void lanesThatKeepFailingSpendTheBudgetAndSaySo() throws Exception {
        LaneFleet fleet = failingLanes(1);
        assertThat(fleet.keep(1)).isEmpty();

        Optional<LaneFleet.BudgetSpent> spent = Optional.empty();
        int asks = 0;
        while (spent.isEmpty() && asks++ < 10) {
            awaitFailures(fleet);
            spent = fleet.keep(1);
        }

        assertThat(spent).hasValueSatisfying(s -> assertThat(s.reason()).contains("2 times (budget 1)"));
        assertThat(asks).as("the first failure is replaced, the second spends a budget of one").isEqualTo(2);
    }

    @Test
    void drainingEndsEveryRunningLane() throws Exception {
        LaneFleet fleet = runningLanes(0);
        fleet.keep(2);

        fleet.drain();

        assertThat(runningSoon(fleet)).isZero();
    }

    @Test
    void finishingEndsEveryRunningLane() throws Exception {
        LaneFleet fleet = runningLanes(0);
        fleet.keep(2);

        fleet.finish();

        assertThat(runningSoon(fleet)).isZero();
    }

    /** A host may observe an ended lane a moment after it ended (a killed process, a deleted pod). */
    private int runningSoon(LaneFleet fleet) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        int running = running(fleet);
        while (running > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
            running = running(fleet);
        }
        return running;
    }
}

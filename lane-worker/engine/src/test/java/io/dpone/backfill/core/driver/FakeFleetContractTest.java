package io.dpone.backfill.core.driver;

/** The loop's tests use {@link FakeFleet}: it keeps lanes as the real fleets do. */
class FakeFleetContractTest extends LaneFleetContract {
    @Override
    protected LaneFleet runningLanes(int budget) {
        return new FakeFleet(budget);
    }

    @Override
    protected LaneFleet failingLanes(int budget) {
        return new FakeFleet(budget);
    }

    @Override
    protected int running(LaneFleet fleet) {
        return ((FakeFleet) fleet).running();
    }

    @Override
    protected void awaitFailures(LaneFleet fleet) {
        ((FakeFleet) fleet).lanesFail();
    }
}

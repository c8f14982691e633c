package io.dpone.backfill.core.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Lanes in memory, kept as the hosts keep theirs: a lane slot that failed is counted against the budget when it is
 * asked for again, and replaced while the budget lasts; past it, nothing is started and the budget is spent.
 * {@link LaneFleetContract} binds it to the real fleets.
 */
final class FakeFleet implements LaneFleet {
    private enum Lane { RUNNING, FAILED, GONE }

    final List<String> calls = new ArrayList<>();
    private final List<Lane> lanes = new ArrayList<>();
    private final int budget;
    private int failures;

    FakeFleet(int budget) {
        this.budget = budget;
    }

    /** Every running lane fails, as a crashing lane process or pod does. */
    void lanesFail() {
        lanes.replaceAll(l -> l == Lane.RUNNING ? Lane.FAILED : l);
    }

    int running() {
        return (int) lanes.stream().filter(l -> l == Lane.RUNNING).count();
    }

    @Override
    public Optional<BudgetSpent> keep(int count) {
        calls.add("keep " + count);
        while (lanes.size() < count) {
            lanes.add(Lane.GONE);
        }
        for (int i = 0; i < count; i++) {
            if (lanes.get(i) == Lane.FAILED) {
                failures++;
                lanes.set(i, Lane.GONE);
            }
            if (failures > budget) {
                return Optional.of(new BudgetSpent("lanes failed " + failures + " times (budget " + budget + ")"));
            }
            lanes.set(i, Lane.RUNNING);
        }
        return Optional.empty();
    }

    @Override
    public void drain() {
        calls.add("drain");
        lanes.replaceAll(l -> l == Lane.RUNNING ? Lane.GONE : l);
    }

    @Override
    public void finish() {
        calls.add("finish");
        lanes.replaceAll(l -> Lane.GONE);
    }
}

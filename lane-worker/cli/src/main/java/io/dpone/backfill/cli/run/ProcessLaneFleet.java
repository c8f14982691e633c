package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.local.LaneBudgetExceededException;
import io.dpone.backfill.cli.local.LocalLaneLauncher;
import io.dpone.backfill.core.driver.LaneFleet;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/** The CLI's lanes: local processes, one process group each (ADR 0006), kept by the {@link LocalLaneLauncher}. */
final class ProcessLaneFleet implements LaneFleet {
    private final LocalLaneLauncher launcher;
    private final Duration drainTimeout;

    ProcessLaneFleet(LocalLaneLauncher launcher, Duration drainTimeout) {
        this.launcher = launcher;
        this.drainTimeout = drainTimeout;
    }

    @Override
    public Optional<BudgetSpent> keep(int lanes) throws IOException {
        try {
            launcher.ensure(lanes);
            return Optional.empty();
        } catch (LaneBudgetExceededException e) {
            return Optional.of(new BudgetSpent(e.getMessage()));
        }
    }

    @Override
    public void drain() {
        launcher.stop(drainTimeout);
    }

    /** A complete campaign's lanes exit by themselves once they see it: the same bounded wait as a drain. */
    @Override
    public void finish() {
        launcher.stop(drainTimeout);
    }
}

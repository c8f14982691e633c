package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.local.LaneLogDirectory;
import io.dpone.backfill.cli.local.LocalLaneLauncher;
import io.dpone.backfill.core.driver.LaneFleet;
import io.dpone.backfill.core.driver.LaneFleetContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CLI's lanes against what the driver loop relies on: real child processes, each a shell standing in for a
 * lane (the option text keeps the launcher from adding JVM options a shell would not take).
 */
class ProcessLaneFleetContractTest extends LaneFleetContract {
    /** The launcher replaces a failed lane no sooner than a second after it started it. */
    private static final Duration RESTART_BACKOFF = Duration.ofMillis(1100);

    @TempDir
    Path dir;

    private final Map<LaneFleet, LocalLaneLauncher> launchers = new IdentityHashMap<>();
    private final List<String> logged = new ArrayList<>();

    @AfterEach
    void killLanes() {
        launchers.values().forEach(LocalLaneLauncher::close);
    }

    private LaneFleet fleet(String script, int budget) throws java.io.IOException {
        LocalLaneLauncher launcher = new LocalLaneLauncher(List.of("sh", "-c", script, "-XX:ErrorFile=/dev/null"), Map.of(),
                List.of(), LaneLogDirectory.chosen(dir.resolve("logs-" + launchers.size())), budget, logged::add, null);
        LaneFleet fleet = new ProcessLaneFleet(launcher, Duration.ofMillis(500));
        launchers.put(fleet, launcher);
        return fleet;
    }

    @Override
    protected LaneFleet runningLanes(int budget) throws java.io.IOException {
        return fleet("exec sleep 60", budget);
    }

    @Override
    protected LaneFleet failingLanes(int budget) throws java.io.IOException {
        return fleet("exit 3", budget);
    }

    @Override
    protected int running(LaneFleet fleet) {
        return launchers.get(fleet).pids().size();
    }

    @Override
    protected void awaitFailures(LaneFleet fleet) throws InterruptedException {
        LocalLaneLauncher launcher = launchers.get(fleet);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!launcher.pids().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Thread.sleep(RESTART_BACKOFF.toMillis());
    }
}

package io.dpone.backfill.wiring;

import io.dpone.backfill.connect.Connector;
import io.dpone.backfill.core.engine.EngineAction;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.lane.LaneExit;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A PostgreSQL-to-PostgreSQL campaign on the shared embedded server: a fresh source and target database per test,
 * the real adapters, and lanes as threads (each with its own three connections, like a lane process).
 */
final class CampaignHarness implements AutoCloseable {
    static final EngineTimings FAST = new EngineTimings(Duration.ofSeconds(5), Duration.ofMillis(500),
            Duration.ofSeconds(10), Duration.ofSeconds(5));

    final PostgresDatabase source = PostgresDatabase.fresh("src");
    final PostgresDatabase target = PostgresDatabase.fresh("tgt");
    final Connector sourceConnector = app -> source.connect();
    final Connector targetConnector = app -> target.connect();
    final ConcurrentLinkedQueue<String> laneLog = new ConcurrentLinkedQueue<>();
    private final ExecutorService laneThreads = Executors.newCachedThreadPool();
    private final List<Future<LaneExit>> lanes = new ArrayList<>();
    /** The fault points lanes started from now on pass through; a test may hook work in between chunks. */
    FaultPoints laneFaults = FaultPoints.NONE;

    /** The suites' campaign on {@code public.items}: three lanes, two attempts a chunk; {@code extra} spec lines as they are. */
    static CampaignYaml campaign(String backfillId, String chunk, String extra) {
        return CampaignYaml.campaign(backfillId).name("test").secrets("src", "tgt").chunk(chunk).parallelWorkers(3)
                .maxChunkAttempts(2).extraSpec(extra);
    }

    static CampaignBlueprint blueprint(CampaignYaml yaml) {
        return CampaignBlueprint.of(CampaignReader.parse(yaml.render()));
    }

    CampaignRuntime session(CampaignBlueprint b) throws SQLException {
        return CampaignRuntime.open(b, sourceConnector, targetConnector, FAST, "test-driver");
    }

    void startLanes(CampaignBlueprint b, int count) {
        for (int i = lanes.size(); i < count; i++) {
            int index = i;
            lanes.add(laneThreads.submit(() -> {
                try (LaneRuntime lane = LaneRuntime.open(b.definition().spec().getSource().getType(),
                        b.definition().spec().getTarget().getType(), sourceConnector,
                        targetConnector, b.identity().runKey(), index, "lane-" + index + "-" + System.nanoTime(),
                        b.definition().spec().getState().getSchema(), FAST, laneFaults,
                        line -> laneLog.add("lane " + index + ": " + line))) {
                    return lane.worker().run();
                }
            }));
        }
    }

    List<LaneExit> awaitLanes() throws Exception {
        List<LaneExit> exits = new ArrayList<>();
        for (Future<LaneExit> f : lanes) {
            exits.add(f.get());
        }
        lanes.clear();
        return exits;
    }

    /** Opens the campaign (pre-flight checked, as drivers do) and takes its lease as a fresh driver. */
    static CampaignLease openAndLease(CampaignRuntime s, CampaignBlueprint b) {
        s.engine().open(s.preflight(b, null));
        return s.ledger().acquireLease(b.identity().runKey(), "driver-" + System.nanoTime(), FAST.leaseTtl()).orElseThrow();
    }

    /** Steps the engine until it reaches {@code phase}; fails instead of spinning if the campaign settles elsewhere. */
    static StepResult stepUntil(CampaignRuntime session, CampaignLease lease, io.dpone.backfill.core.campaign.CampaignPhase phase) {
        for (int i = 0; i < 20; i++) {
            StepResult r = session.engine().step(lease);
            if (r.phase() == phase) {
                return r;
            }
            if (r.settled()) {
                throw new AssertionError("campaign settled in " + r.phase() + " (" + r.message() + ") before reaching " + phase);
            }
        }
        throw new AssertionError("campaign did not reach " + phase + " in 20 steps");
    }

    /** Steps the engine like a driver would, running lanes as threads, until the campaign settles. */
    StepResult runToSettled(CampaignBlueprint b, CampaignRuntime session, CampaignLease lease) throws Exception {
        return runUntil(b, session, lease, null);
    }

    /**
     * The same, stopping as soon as a step reaches {@code phase} (null: once settled), its lanes awaited: so a test
     * can act between loading and validation.
     */
    StepResult runUntil(CampaignBlueprint b, CampaignRuntime session, CampaignLease lease,
                        io.dpone.backfill.core.campaign.CampaignPhase phase) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            // As a driver's renewer does: a load longer than the lease TTL must not lose the campaign.
            session.ledger().renewLease(lease, FAST.leaseTtl());
            StepResult r = session.engine().step(lease);
            for (EngineAction action : r.actions()) {
                if (action instanceof EngineAction.RunLanes run && lanes.stream().allMatch(Future::isDone)) {
                    lanes.clear();
                    startLanes(b, run.lanes());
                }
            }
            if (r.stopsLanes() || r.settled() || r.phase() == phase) {
                awaitLanes();
            }
            if (r.settled() || r.phase() == phase) {
                return r;
            }
            Thread.sleep(Math.min(200, r.requeueAfter().toMillis()));
        }
        throw new AssertionError("campaign did not settle in 120 s; lane log: " + laneLog);
    }

    @Override
    public void close() {
        laneThreads.shutdownNow();
    }
}

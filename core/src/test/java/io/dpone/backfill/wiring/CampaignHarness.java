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
import io.dpone.backfill.pgembedded.EmbeddedPostgres;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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

    final EmbeddedPostgres pg = SharedEmbeddedPostgres.get();
    final String sourceDb = SharedEmbeddedPostgres.freshDatabase("src");
    final String targetDb = SharedEmbeddedPostgres.freshDatabase("tgt");
    final Connector sourceConnector = app -> pg.connect(sourceDb);
    final Connector targetConnector = app -> pg.connect(targetDb);
    final ConcurrentLinkedQueue<String> laneLog = new ConcurrentLinkedQueue<>();
    private final ExecutorService laneThreads = Executors.newCachedThreadPool();
    private final List<Future<LaneExit>> lanes = new ArrayList<>();

    static String campaign(String backfillId, String chunk, String extra) {
        return """
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata: {name: test}
                spec:
                  backfillId: %s
                  source: {connectionSecretRef: {name: src}, table: items}
                  target: {type: postgres, connectionSecretRef: {name: tgt}, table: items}
                  uniqueKey: [id]
                  chunk: %s
                  parallelWorkers: 3
                  maxChunkAttempts: 2
                %s""".formatted(backfillId, chunk, extra);
    }

    static CampaignBlueprint blueprint(String yaml) {
        return CampaignBlueprint.of(CampaignReader.parse(yaml));
    }

    void source(String... sql) throws SQLException {
        pg.execute(sourceDb, sql);
    }

    void target(String... sql) throws SQLException {
        pg.execute(targetDb, sql);
    }

    long sourceLong(String sql) throws SQLException {
        return pg.queryForLong(sourceDb, sql);
    }

    long targetLong(String sql) throws SQLException {
        return pg.queryForLong(targetDb, sql);
    }

    /** Keys of the source table as text, for comparing with the target across databases. */
    List<String> keys(boolean target, String table) throws SQLException {
        List<String> keys = new ArrayList<>();
        try (Connection c = pg.connect(target ? targetDb : sourceDb); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id::text FROM " + table + " ORDER BY id")) {
            while (rs.next()) {
                keys.add(rs.getString(1));
            }
        }
        return keys;
    }

    CampaignSession session(CampaignBlueprint b) throws SQLException {
        return CampaignSession.open(b, sourceConnector, targetConnector, FAST, "test-driver");
    }

    void startLanes(CampaignBlueprint b, int count) {
        for (int i = lanes.size(); i < count; i++) {
            int index = i;
            lanes.add(laneThreads.submit(() -> {
                try (LaneSession lane = LaneSession.open(b.definition().spec().getTarget().getType(), sourceConnector,
                        targetConnector, b.identity().runKey(), index, "lane-" + index + "-" + System.nanoTime(),
                        b.definition().spec().getState().getSchema(), FAST, FaultPoints.NONE,
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

    /** Steps the engine until it reaches {@code phase}; fails instead of spinning if the campaign settles elsewhere. */
    static StepResult stepUntil(CampaignSession session, CampaignLease lease, io.dpone.backfill.core.campaign.CampaignPhase phase) {
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
    StepResult runToSettled(CampaignBlueprint b, CampaignSession session, CampaignLease lease) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            StepResult r = session.engine().step(lease);
            for (EngineAction action : r.actions()) {
                if (action instanceof EngineAction.RunLanes run && lanes.stream().allMatch(Future::isDone)) {
                    lanes.clear();
                    startLanes(b, run.lanes());
                }
            }
            if (r.stopsLanes() || r.settled()) {
                awaitLanes();
            }
            if (r.settled()) {
                return r;
            }
            Thread.sleep(Math.min(200, r.requeueAfter().toMillis()));
        }
        throw new AssertionError("campaign did not settle in 60 s; lane log: " + laneLog);
    }

    @Override
    public void close() {
        laneThreads.shutdownNow();
    }
}

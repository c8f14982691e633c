package io.dpone.backfill.wiring;

import io.dpone.backfill.connect.Connector;
import io.dpone.backfill.core.campaign.SourceType;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.heal.ConnectionLoss;
import io.dpone.backfill.core.heal.HealingTimings;
import io.dpone.backfill.core.heal.ReconnectBackoff;
import io.dpone.backfill.core.lane.LaneConnectionLostException;
import io.dpone.backfill.core.lane.LaneExit;
import io.dpone.backfill.core.ledger.ChunkClaim;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One lane that heals lost connections by itself (ADR 0020): when a source, sink or state connection breaks or
 * hangs past its deadline, it opens a new session with bounded exponential back-off, ends the old session's server
 * sessions (a half-open one still holds its locks and its open COPY), gives back the chunk it held (pending again,
 * claimed later under a new epoch) and carries on. Only an outage longer than the reconnect budget ends the lane
 * with the last error, for its driver's lane budget to count.
 */
public final class HealingLane {
    private final SourceType sourceType;
    private final TargetType targetType;
    private final Connector sourceConnector;
    private final Connector targetConnector;
    private final String runKey;
    private final int laneIndex;
    private final String owner;
    private final String stateSchema;
    private final EngineTimings timings;
    private final HealingTimings healing;
    private final FaultPoints faults;
    private final Consumer<String> log;

    public HealingLane(SourceType sourceType, TargetType targetType, Connector sourceConnector, Connector targetConnector, String runKey, int laneIndex,
                       String owner, String stateSchema, EngineTimings timings, HealingTimings healing, FaultPoints faults,
                       Consumer<String> log) {
        this.sourceType = sourceType;
        this.targetType = targetType;
        this.sourceConnector = sourceConnector;
        this.targetConnector = targetConnector;
        this.runKey = runKey;
        this.laneIndex = laneIndex;
        this.owner = owner;
        this.stateSchema = stateSchema;
        this.timings = timings;
        this.healing = healing;
        this.faults = faults;
        this.log = log;
    }

    public LaneExit run(BooleanSupplier supervised) throws Exception {
        ReconnectBackoff backoff = healing.backoff();
        StaleSessionIds stale = StaleSessionIds.NONE;
        ChunkClaim orphan = null;
        while (true) {
            LaneRuntime runtime;
            try {
                // A lane started during preparation waits for Loading inside, on its state connection (ADR 0023).
                runtime = LaneRuntime.openWhenLoading(sourceType, targetType, sourceConnector, targetConnector, runKey, laneIndex,
                        owner, stateSchema, timings, healing, faults, log, supervised);
                if (runtime == null) {
                    return LaneExit.STOP_REQUESTED;
                }
            } catch (Exception e) {
                // Refused logins and missing ledgers are not outages: only a lost or unreachable server is waited for.
                if (!ConnectionLoss.is(e)) {
                    throw e;
                }
                pause(backoff, e, "reconnecting");
                continue;
            }
            try (runtime) {
                if (!stale.isEmpty()) {
                    int ended = runtime.endStale(stale);
                    log.accept("reconnected; ended " + ended + " stale session(s) of the lost connection(s)");
                    stale = StaleSessionIds.NONE;
                }
                if (orphan != null) {
                    boolean given = runtime.ledger().abandonChunk(orphan, "lane lost its connection; chunk given back");
                    log.accept("chunk " + orphan.chunkId() + ": " + (given ? "given back for a new claim (its open"
                            + " transaction went with the connection)" : "already moved on (committed, or taken by another lane)"));
                    orphan = null;
                }
                backoff.healed();
                return runtime.worker().run(supervised);
            } catch (LaneConnectionLostException e) {
                orphan = e.claim();
                stale = runtime.sessionIds();
                pause(backoff, e, "connection lost while loading " + e.getMessage());
            } catch (RuntimeException e) {
                if (!ConnectionLoss.is(e)) {
                    throw e;
                }
                stale = runtime.sessionIds();
                pause(backoff, e, "connection lost");
            }
        }
    }

    private void pause(ReconnectBackoff backoff, Exception cause, String what) throws Exception {
        backoff.pauseOrGiveUp(what, cause, log);
    }
}

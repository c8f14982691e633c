package io.dpone.backfill.wiring;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.backfill.connect.Connector;
import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignDefinition;
import io.dpone.backfill.core.campaign.SourceType;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.engine.PhaseDetail;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.heal.HealingTimings;
import io.dpone.backfill.core.lane.ChunkProtocol;
import io.dpone.backfill.core.lane.ChunkSink;
import io.dpone.backfill.core.lane.LanePace;
import io.dpone.backfill.core.lane.LaneWorker;
import io.dpone.backfill.core.lane.PaceClock;
import io.dpone.backfill.core.lane.LoadingGate;
import io.dpone.backfill.core.lane.ShapeProbe;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.source.SourceCatalog;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.core.publish.TargetCatalog;
import io.dpone.backfill.source.ChunkReading;
import io.dpone.backfill.source.SourceAdapter;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.ChunkLoad;
import io.dpone.backfill.targets.TargetAdapter;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A lane's composition root: its own source, sink and state connections, held for the lane's life. The lane reads
 * its plan from the ledger (never from Kubernetes) and refuses to run if the plan does not reproduce the run key.
 */
public final class LaneRuntime implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Connection source;
    private final Connection sink;
    private final Connection state;
    private final LaneWorker worker;
    private final LedgerStore ledger;
    private final SourceAdapter sourceAdapter;
    private final TargetAdapter adapter;
    /** Each connection's server session, named at open: what a later session of this lane ends if it went stale. */
    private final StaleSessionIds sessionIds;

    private LaneRuntime(SourceAdapter sourceAdapter, TargetAdapter adapter, Connection source, Connection sink, Connection state, LedgerStore ledger,
                        String runKey, int laneIndex, String owner, String stateSchema, EngineTimings timings,
                        HealingTimings healing, FaultPoints faults, Consumer<String> log) {
        this.sourceAdapter = sourceAdapter;
        this.adapter = adapter;
        this.sessionIds = new StaleSessionIds(
                java.util.Collections.singletonList(sourceAdapter.sessions().identify(source)),
                java.util.Arrays.asList(adapter.sessions().identify(sink), adapter.sessions().identify(state)));
        this.source = source;
        this.sink = sink;
        this.state = state;
        this.ledger = ledger;
        CampaignRecord campaign = ledger.findByRunKey(runKey)
                .orElseThrow(() -> new IllegalStateException("run key " + runKey + " is not in the ledger " + stateSchema));
        BackfillCampaignSpec spec = readSpec(campaign.specJson());
        CampaignBlueprint blueprint = CampaignBlueprint.of(new CampaignDefinition("lane", null, spec));
        if (!blueprint.identity().runKey().equals(runKey)) {
            throw new IllegalStateException("the ledger's spec yields run key " + blueprint.identity().runKey() + ", not " + runKey);
        }
        // Physical chunks are block ranges of the heap preparation measured and recorded with the move to Prepared.
        HeapExtent heap = PhaseDetail.parse(campaign.detail()).heapExtent();
        ChunkPlan plan = ChunkPlanner.resolve(spec.getChunk(), heap);
        TargetCatalog targetCatalog = adapter.catalog(sink);
        SourceCatalog sourceCatalog = sourceAdapter.catalog(source);
        String loadTable = blueprint.loadTable();
        String schema = blueprint.artifacts().schema();
        TableShape loadShape = targetCatalog.shape(schema, loadTable);
        TableShape sourceShape = sourceCatalog.shape(spec.getSource().getSchema(), spec.getSource().getTable());
        // Generated columns are computed by the target and columns the source lacks take their defaults; each loaded
        // column is read from the source column the campaign's mapping pairs with it (issue 27).
        LoadColumns loaded = loadShape.loadColumnsFrom(sourceShape, spec.columnMapping());
        List<String> columns = loaded.source();
        List<String> sinkKey = spec.getUniqueKey().stream().map(loaded::targetOf).filter(java.util.Objects::nonNull).toList();
        ChunkSink sinkPort = adapter.chunkSink(sink, new ChunkLoad(stateSchema, schema, loadTable, loaded.target(),
                sinkKey, receiptWait(timings), new SourceTable(sourceAdapter, source, spec.getSource().getSchema(),
                spec.getSource().getTable()), columns, RowEncoding.fromWire(campaign.rowEncoding())));
        // Said once per lane: how rows travel is the campaign's recorded choice (ADR 0017), visible in the lane log.
        log.accept("rows move as " + sinkPort.encoding().wireName());
        ChunkProtocol committer = new ChunkProtocol(
                sourceAdapter.chunks(source, new ChunkReading(plan, spec.getSource().getSchema(), spec.getSource().getTable(),
                        columns, heap, campaign.anchorXmin(), digestKey(columns, spec.getUniqueKey()))), sinkPort, faults,
                LanePace.fromLedger(ledger, runKey, spec.getMaxChunkAttempts(), PaceClock.SYSTEM, log));
        String liveTable = spec.getTarget().getTable();
        ShapeProbe shapes = new ShapeProbe() {
            @Override
            public String sourceDigest() {
                return sourceCatalog.shape(spec.getSource().getSchema(), spec.getSource().getTable()).digest();
            }

            @Override
            public String loadTableDigest() {
                return targetCatalog.shape(schema, loadTable).digest();
            }

            @Override
            public String liveTargetDigest() {
                return targetCatalog.liveShape(schema, liveTable).digest();
            }
        };
        this.worker = new LaneWorker(runKey, owner, laneIndex, ledger, committer, plan, spec, timings, shapes, faults, log,
                healing.stallDeadline(), this::abortConnections);
    }

    /** This session's server sessions, for the next session to end if this one is abandoned. */
    public StaleSessionIds sessionIds() {
        return sessionIds;
    }

    /** Ends {@code stale} sessions of an earlier session of this lane; returns how many the servers ended. */
    public int endStale(StaleSessionIds stale) {
        return sourceAdapter.sessions().end(source, stale.source()) + adapter.sessions().end(state, stale.target());
    }

    public LedgerStore ledger() {
        return ledger;
    }

    /**
     * Closes the sockets at once, from any thread: a call blocked on one of them fails instead of waiting for a
     * peer that stopped answering.
     */
    public void abortConnections() {
        for (Connection c : new Connection[]{state, sink, source}) {
            try {
                c.abort(Runnable::run);
            } catch (SQLException | RuntimeException ignored) {
                // Aborting is best effort; the caller reconnects either way.
            }
        }
    }

    /**
     * Every chunk's receipt records its rows' content digest (ADR 0018) over the unique key, which is loaded in every
     * campaign the doctor accepts; a key outside the loaded columns gets no digest rather than a lane that cannot run.
     */
    static List<String> digestKey(List<String> columns, List<String> uniqueKey) {
        return columns.containsAll(uniqueKey) && !uniqueKey.isEmpty() ? uniqueKey : null;
    }

    /** A zombie's receipt can be held for at most one chunk lease: that bounds how long a commit waits for it. */
    static java.time.Duration receiptWait(EngineTimings timings) {
        return timings.leaseTtl();
    }

    public static LaneRuntime open(SourceType sourceType, TargetType targetType, Connector sourceConnector,
                                   Connector targetConnector, String runKey, int laneIndex, String owner, String stateSchema,
                                   EngineTimings timings, FaultPoints faults, Consumer<String> log) throws SQLException {
        return open(sourceType, targetType, sourceConnector, targetConnector, runKey, laneIndex, owner, stateSchema, timings,
                HealingTimings.DEFAULTS, faults, log);
    }

    public static LaneRuntime open(SourceType sourceType, TargetType targetType, Connector sourceConnector,
                                   Connector targetConnector, String runKey, int laneIndex, String owner, String stateSchema,
                                   EngineTimings timings, HealingTimings healing, FaultPoints faults, Consumer<String> log)
            throws SQLException {
        try {
            return openWhenLoading(sourceType, targetType, sourceConnector, targetConnector, runKey, laneIndex, owner, stateSchema,
                    timings, healing, faults, log, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while opening lane " + laneIndex, e);
        }
    }

    /**
     * Opens the lane's connections and, unless {@code supervised} is null, waits on its own state connection until
     * the campaign is past preparation ({@link LoadingGate}, ADR 0023) before reading what preparation recorded.
     * Waiting here, not on a connection of its own, saves the lane a login, and its logins overlap preparation.
     * Returns null, its connections closed, when {@code supervised} turned false while waiting.
     */
    public static LaneRuntime openWhenLoading(SourceType sourceType, TargetType targetType, Connector sourceConnector,
                                              Connector targetConnector,
                                              String runKey, int laneIndex, String owner, String stateSchema,
                                              EngineTimings timings, HealingTimings healing, FaultPoints faults,
                                              Consumer<String> log, BooleanSupplier supervised)
            throws SQLException, InterruptedException {
        TargetAdapter adapter = Connectors.target(targetType);
        SourceAdapter sourceAdapter = Connectors.source(sourceType);
        String app = "backfill-lane-" + laneIndex;
        Connection source = sourceConnector.open(app + "-source");
        Connection sink = null;
        Connection state = null;
        try {
            sink = targetConnector.open(app + "-sink");
            state = targetConnector.open(app + "-state");
            // Every read has a deadline (ADR 0020): a lane's ledger calls are short, and no single read of a chunk
            // waits longer than the stall deadline, so a connection that silently stopped answering fails the call.
            state.setNetworkTimeout(Runnable::run, (int) Math.max(timings.leaseTtl().toMillis(), 10_000));
            sink.setNetworkTimeout(Runnable::run, (int) healing.stallDeadline().toMillis());
            source.setNetworkTimeout(Runnable::run, (int) healing.stallDeadline().toMillis());
            LedgerStore ledger = adapter.ledger(state, stateSchema);
            if (supervised != null && !new LoadingGate(ledger, runKey, log).await(supervised)) {
                closeAll(state, sink, source);
                return null;
            }
            return new LaneRuntime(sourceAdapter, adapter, source, sink, state, ledger, runKey, laneIndex, owner, stateSchema, timings,
                    healing, faults, log);
        } catch (SQLException | RuntimeException | InterruptedException e) {
            closeAll(state, sink, source);
            throw e;
        }
    }

    private static void closeAll(Connection... connections) {
        for (Connection c : connections) {
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // Best effort: the server ends the sessions either way.
                }
            }
        }
    }

    public LaneWorker worker() {
        return worker;
    }

    private static BackfillCampaignSpec readSpec(String json) {
        try {
            return JSON.readValue(json, BackfillCampaignSpec.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the ledger's campaign spec cannot be read: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        closeAll(state, sink, source);
    }
}

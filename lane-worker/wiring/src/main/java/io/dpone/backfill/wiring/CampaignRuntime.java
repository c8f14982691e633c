package io.dpone.backfill.wiring;

import io.dpone.backfill.connect.Connector;
import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.source.SourceCatalog;
import io.dpone.backfill.core.publish.ShadowPublisher;
import io.dpone.backfill.source.SourceAdapter;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.TargetAdapter;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The driver's composition root (a runtime, not a database session): one source connection and two target connections (ledger state, publication),
 * the adapters of the campaign's source and target engines, and the engine over them. Held for the driver's life.
 */
public final class CampaignRuntime implements AutoCloseable {
    private final Connection source;
    private final Connection state;
    private final Connection target;
    private final LedgerStore ledger;
    private final ShadowPublisher publisher;
    private final SourceCatalog sourceCatalog;
    private final CampaignEngine engine;
    private final FaultPoints faults;

    private final SourceAdapter sourceAdapter;
    private final TargetAdapter adapter;
    private final StaleSessionIds sessionIds;

    private final EngineTimings timings;
    /** Where a reconciliation pass's lines go (ADR 0057); read when a pass runs, so a host may set it after open. */
    private volatile java.util.function.Consumer<String> passLog = line -> { };

    /** Opens the read-back gate's extra sessions to the target, named for the driver. */
    private final Connector readBackSessions;

    private CampaignRuntime(SourceAdapter sourceAdapter, TargetAdapter adapter, CampaignBlueprint blueprint, Connection source,
                            Connection state, Connection target, Connector readBackSessions, EngineTimings timings,
                            FaultPoints faults) {
        this.sourceAdapter = sourceAdapter;
        this.adapter = adapter;
        this.readBackSessions = readBackSessions;
        this.faults = faults;
        this.timings = timings;
        this.sessionIds = new StaleSessionIds(java.util.Collections.singletonList(sourceAdapter.sessions().identify(source)),
                java.util.Arrays.asList(adapter.sessions().identify(state), adapter.sessions().identify(target)));
        this.source = source;
        this.state = state;
        this.target = target;
        String stateSchema = blueprint.definition().spec().getState().getSchema();
        this.ledger = adapter.ledger(state, stateSchema);
        this.publisher = adapter.publisher(target, stateSchema, timings.lockTimeout(), faults);
        this.sourceCatalog = sourceAdapter.catalog(source);
        this.engine = newEngine(blueprint);
    }

    /** An engine over this session's connections; the operator builds one per reconcile pass. */
    public CampaignEngine newEngine(CampaignBlueprint blueprint) {
        var spec = blueprint.definition().spec();
        return new CampaignEngine(blueprint, ledger, publisher, sourceCatalog, faults,
                columns -> adapter.rowEncoding(sourceTable(spec), target, blueprint.artifacts().schema(),
                        blueprint.loadTable(), columns),
                new ShadowReadBack(adapter, sourceTable(spec), target, readBackSessions,
                        spec.getParallelWorkers() == null ? 1 : spec.getParallelWorkers()))
                .reconcilingWith(new DriverPasses(blueprint, ledger, source, target, timings.leaseTtl(), faults, () -> passLog));
    }

    /** Sends the lines of the reconciliation passes this runtime's engines run to {@code log}. */
    public void logPassesTo(java.util.function.Consumer<String> log) {
        this.passLog = log;
    }

    /** The campaign's source table over this session's source connection. */
    private SourceTable sourceTable(io.dpone.backfill.core.campaign.BackfillCampaignSpec spec) {
        return new SourceTable(sourceAdapter, source, spec.getSource().getSchema(), spec.getSource().getTable());
    }

    public static CampaignRuntime open(CampaignBlueprint blueprint, Connector sourceConnector, Connector targetConnector,
                                       EngineTimings timings, String applicationName) throws SQLException {
        SourceAdapter sourceAdapter = Connectors.source(blueprint.definition().spec().getSource().getType());
        TargetAdapter adapter = Connectors.target(blueprint.definition().spec().getTarget().getType());
        Connection source = sourceConnector.open(applicationName + "-source");
        try {
            Connection state = targetConnector.open(applicationName + "-state");
            try {
                // Ledger calls are short: a state connection that stops answering fails them (ADR 0020).
                state.setNetworkTimeout(Runnable::run, (int) Math.max(timings.leaseTtl().multipliedBy(2).toMillis(), 60_000));
                Connection target = targetConnector.open(applicationName + "-target");
                // Crash-test points come from the environment (BACKFILL_FAULT) for every driver; none in production.
                // The gate reads the shadow in a part per lane once the lanes are done (ADR 0036).
                Connector readBack = part -> targetConnector.open(applicationName + "-" + part);
                return new CampaignRuntime(sourceAdapter, adapter, blueprint, source, state, target, readBack, timings,
                        EnvironmentFaultPoints.fromEnvironment());
            } catch (SQLException | RuntimeException e) {
                state.close();
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            source.close();
            throw e;
        }
    }

    /**
     * The campaign's pre-flight over this session's connections: the same checks as {@code backfill doctor}, or
     * none when an expert skipped them ({@code skippedBy} names how, e.g. {@code --skip-preflight}).
     */
    public Preflight preflight(CampaignBlueprint blueprint, String skippedBy) {
        if (skippedBy != null) {
            return Preflight.skipped(skippedBy);
        }
        return Preflight.checkedBy(() -> adapter.doctor().check(blueprint.definition().spec(), blueprint.artifacts(),
                sourceTable(blueprint.definition().spec()), target, blueprint.identity().runKey()));
    }

    /** The fault points this session's engines fire; the operator rebuilds engines per pass with them. */
    public FaultPoints faults() {
        return faults;
    }

    public CampaignEngine engine() {
        return engine;
    }

    public LedgerStore ledger() {
        return ledger;
    }

    public ShadowPublisher publisher() {
        return publisher;
    }

    public SourceCatalog sourceCatalog() {
        return sourceCatalog;
    }

    public Connection sourceConnection() {
        return source;
    }

    /** The source's load, for the source guard (issue 28), read on the driver's own source connection. */
    public io.dpone.backfill.core.source.SourceLoadProbe sourceLoad() {
        return sourceAdapter.load(source);
    }

    public Connection targetConnection() {
        return target;
    }

    /** This session's server sessions, named at open, for the next session to end if this one is abandoned. */
    public StaleSessionIds sessionIds() {
        return sessionIds;
    }

    /**
     * Ends an abandoned session's server sessions (ADR 0020); above all the state session, whose session lock
     * would otherwise keep this driver from taking its own campaign back. Returns how many the servers ended.
     */
    public int endStale(StaleSessionIds stale) {
        return sourceAdapter.sessions().end(source, stale.source()) + adapter.sessions().end(state, stale.target());
    }

    /** Closes the sockets at once, from any thread, so a call blocked on a connection that stopped answering fails. */
    public void abortConnections() {
        for (Connection c : new Connection[]{target, state, source}) {
            try {
                c.abort(Runnable::run);
            } catch (SQLException | RuntimeException ignored) {
                // Best effort: the driver reconnects either way.
            }
        }
    }

    @Override
    public void close() {
        for (Connection c : new Connection[]{target, state, source}) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // Closing is best effort; the server ends the session either way.
            }
        }
    }
}

package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.connect.DatabaseEndpoint;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.lane.ChunkSink;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.publish.ShadowPublisher;
import io.dpone.backfill.core.publish.TargetCatalog;
import io.dpone.backfill.core.verify.PublishedTableDigests;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.ChunkLoad;
import io.dpone.backfill.targets.TargetAdapter;
import io.dpone.backfill.targets.TargetDoctor;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctor;
import io.dpone.backfill.targets.mssql.ledger.MssqlLedgerConnection;
import io.dpone.backfill.targets.mssql.publish.MssqlShadowPublishers;
import io.dpone.backfill.targets.mssql.publish.MssqlTargetCatalog;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;

/** SQL Server (2019+, Azure SQL) as the target: ledger, shadow and receipts in the target database, bulk copy. */
public final class MssqlTargetAdapter implements TargetAdapter {
    @Override
    public TargetType type() {
        return TargetType.MSSQL;
    }

    @Override
    public DatabaseEndpoint endpoint() {
        return MssqlEndpoint.INSTANCE;
    }

    @Override
    public LedgerStore ledger(Connection state, String stateSchema) {
        return MssqlLedgerConnection.store(state, stateSchema);
    }

    @Override
    public ShadowPublisher publisher(Connection target, String stateSchema, Duration lockTimeout, FaultPoints faults) {
        return MssqlShadowPublishers.of(target, stateSchema, lockTimeout, faults);
    }

    @Override
    public io.dpone.backfill.core.generate.SchemaCatalog schemaCatalog(Connection target) {
        return new MssqlSchemaCatalog(target);
    }

    @Override
    public TargetCatalog catalog(Connection target) {
        return new MssqlTargetCatalog(target);
    }

    @Override
    public ChunkSink chunkSink(Connection sink, ChunkLoad load) {
        return new MssqlChunkSink(sink, load);
    }

    @Override
    public TargetDoctor doctor() {
        return new MssqlDoctor();
    }

    /** SQL Server takes decoded values through the bulk copy, whatever the types. */
    @Override
    public RowEncoding unrecordedRowEncoding() {
        return RowEncoding.VALUES;
    }

    @Override
    public RowEncoding rowEncoding(SourceTable source, Connection target, String loadSchema, String loadTable,
                                   LoadColumns columns) {
        return RowEncoding.VALUES;
    }

    @Override
    public io.dpone.backfill.core.heal.StaleSessions sessions() {
        return MssqlSessions.INSTANCE;
    }

    /** Passes, range receipts, the queue and the versions passes wrote, in the state schema (ADR 0056). */
    @Override
    public io.dpone.backfill.core.reconcile.ReconcileLedger reconcileLedger(Connection state, String stateSchema) {
        return new io.dpone.backfill.targets.mssql.reconcile.MssqlReconcileLedger(state, stateSchema);
    }

    /** Refuses, before anything is written, a published table without a rowversion column or with keys it cannot digest. */
    @Override
    public io.dpone.backfill.core.reconcile.PassTarget passTarget(Connection target, io.dpone.backfill.targets.PassTable table) {
        return new io.dpone.backfill.targets.mssql.reconcile.MssqlPassTarget(target, table);
    }

    @Override
    public PublishedTableDigests publishedDigests(Connection target, SourceTable source, LoadColumns columns) {
        return new MssqlPublishedDigests(target, source, columns);
    }
}

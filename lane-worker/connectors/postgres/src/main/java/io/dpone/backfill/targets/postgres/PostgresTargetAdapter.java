package io.dpone.backfill.targets.postgres;

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
import io.dpone.backfill.postgres.PostgresEndpoint;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.ChunkLoad;
import io.dpone.backfill.targets.TargetAdapter;
import io.dpone.backfill.targets.TargetDoctor;
import io.dpone.backfill.targets.postgres.doctor.PostgresDoctor;
import io.dpone.backfill.targets.postgres.ledger.PostgresLedgerConnection;
import io.dpone.backfill.targets.postgres.publish.PostgresShadowPublishers;
import io.dpone.backfill.targets.postgres.publish.PostgresTargetCatalog;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;

/** PostgreSQL as the target: COPY pass-through from the source, ledger and shadow in the target database. */
public final class PostgresTargetAdapter implements TargetAdapter {
    @Override
    public TargetType type() {
        return TargetType.POSTGRES;
    }

    @Override
    public DatabaseEndpoint endpoint() {
        return PostgresEndpoint.INSTANCE;
    }

    @Override
    public LedgerStore ledger(Connection state, String stateSchema) {
        return PostgresLedgerConnection.store(state, stateSchema);
    }

    @Override
    public ShadowPublisher publisher(Connection target, String stateSchema, Duration lockTimeout, FaultPoints faults) {
        return PostgresShadowPublishers.of(target, stateSchema, lockTimeout, faults);
    }

    @Override
    public io.dpone.backfill.core.generate.SchemaCatalog schemaCatalog(Connection target) {
        return new PostgresSchemaCatalog(target);
    }

    @Override
    public TargetCatalog catalog(Connection target) {
        return new PostgresTargetCatalog(target);
    }

    @Override
    public ChunkSink chunkSink(Connection sink, ChunkLoad load) {
        return new PostgresChunkSink(sink, load.stateSchema(), load.loadSchema(), load.loadTable(), load.columns(),
                load.receiptWait(), load.encoding() == null ? RowEncoding.POSTGRES_COPY_TEXT : load.encoding());
    }

    @Override
    public TargetDoctor doctor() {
        return new PostgresDoctor();
    }

    @Override
    public RowEncoding unrecordedRowEncoding() {
        return RowEncoding.POSTGRES_COPY_TEXT;
    }

    /**
     * C1 only: a lane into PostgreSQL streams COPY bytes and digests them, work C1 code keeps up with, while C2's
     * compile burst in every lane took the cores the lanes and the databases needed (4 lanes on 2 cores: the campaign
     * 12 % faster at 4M rows, 3 % at 10M; ADR 0026).
     */
    @Override
    public List<String> laneJvmOptions() {
        return List.of("-XX:TieredStopAtLevel=1");
    }

    @Override
    public RowEncoding rowEncoding(SourceTable source, Connection target, String loadSchema, String loadTable,
                                   LoadColumns columns) {
        // The PostgreSQL source and this target are one connector: it compares both PostgreSQL catalogs (ADR 0051).
        return PostgresPassThrough.identicalTypes(source.connection(), source.schema(), source.table(), target, loadSchema,
                loadTable, columns)
                ? RowEncoding.POSTGRES_COPY_BINARY : RowEncoding.POSTGRES_COPY_TEXT;
    }

    @Override
    public io.dpone.backfill.core.heal.StaleSessions sessions() {
        return io.dpone.backfill.postgres.PostgresSessions.INSTANCE;
    }

    @Override
    public PublishedTableDigests publishedDigests(Connection target, SourceTable source, LoadColumns columns) {
        return new PostgresPublishedDigests(target, source.connection(), source.schema(), source.table(), columns);
    }

    @Override
    public io.dpone.backfill.core.reconcile.ReconcileLedger reconcileLedger(Connection state, String stateSchema) {
        return new io.dpone.backfill.targets.postgres.reconcile.PostgresReconcileLedger(state, stateSchema);
    }

    @Override
    public io.dpone.backfill.core.reconcile.PassTarget passTarget(Connection target, io.dpone.backfill.targets.PassTable table) {
        return new io.dpone.backfill.targets.postgres.reconcile.PostgresPassTarget(target, table);
    }
}

package io.dpone.backfill.targets;

import io.dpone.backfill.connect.DatabaseEndpoint;
import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.generate.SchemaCatalog;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.lane.ChunkSink;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.publish.ShadowPublisher;
import io.dpone.backfill.core.publish.TargetCatalog;
import io.dpone.backfill.core.verify.PublishedTableDigests;
import io.dpone.backfill.source.SourceTable;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;

/**
 * Everything one target engine contributes to a campaign, created over connections the caller opened with
 * {@link #endpoint()} and closes itself. One implementation per {@link TargetType}, in its own
 * {@code io.dpone.backfill.targets.<engine>} package, registered in wiring's {@code Connectors}. It must pass
 * {@code LedgerStoreContract}, {@code ShadowPublisherContract} and {@code ChunkSinkContract} (ADR 0013).
 */
public interface TargetAdapter {
    TargetType type();

    /** How the target's driver is reached: the URL a Secret's host/port/database compose, client properties. */
    DatabaseEndpoint endpoint();

    /** The campaign ledger in {@code stateSchema} of the target database, over a state connection. */
    LedgerStore ledger(Connection state, String stateSchema);

    /** Shadow preparation, validation, deferred indexes, the swap and its rollback, over a publication connection. */
    default ShadowPublisher publisher(Connection target, String stateSchema, Duration lockTimeout) {
        return publisher(target, stateSchema, lockTimeout, FaultPoints.NONE);
    }

    /** The same, firing {@link io.dpone.backfill.core.fault.FaultPoint#IN_PUBLISH} inside its swap transaction. */
    ShadowPublisher publisher(Connection target, String stateSchema, Duration lockTimeout, FaultPoints faults);

    /** Table shapes only: what a lane compares before every chunk. */
    TargetCatalog catalog(Connection target);

    /** The tables of a target schema and the foreign keys among them, for {@code backfill generate} (issue 27). */
    SchemaCatalog schemaCatalog(Connection target);

    /**
     * The lane's chunk sink over its sink connection: loads the chunk's rows into the load table and writes the
     * chunk's receipt and ledger row in the same transaction.
     */
    ChunkSink chunkSink(Connection sink, ChunkLoad load);

    /** The pre-flight of a route into this target, reading the source (through its adapter) and this target. */
    TargetDoctor doctor();

    /** How this process names and ends its own abandoned sessions on this target after a reconnect. */
    io.dpone.backfill.core.heal.StaleSessions sessions();

    /**
     * How lanes move {@code columns} from the source table into the load table, decided at preparation from both
     * catalogs and recorded in the ledger (ADR 0017).
     */
    RowEncoding rowEncoding(SourceTable source, Connection target, String loadSchema, String loadTable, LoadColumns columns);

    /**
     * The encoding lanes into this target used before preparation recorded one in the ledger (ADR 0017), so an
     * older campaign's receipts are still read as they were written.
     */
    RowEncoding unrecordedRowEncoding();

    /**
     * JVM options a local lane into this target starts with, before the user's own, which win (ADR 0026). A target
     * whose lanes only stream bytes asks for less compilation; one whose lanes convert every value keeps the default.
     */
    default List<String> laneJvmOptions() {
        return List.of();
    }

    /**
     * {@code verify}'s reader of the published table (ADR 0018), over a target connection; {@code source} is where a
     * values route learns the column types its lanes decoded with.
     */
    PublishedTableDigests publishedDigests(Connection target, SourceTable source, LoadColumns columns);

    /**
     * Where reconciliation passes, their range receipts and the queue of keys written by others live (issue 38), in
     * {@code stateSchema} over a state connection. A target that cannot reconcile yet says so.
     */
    default io.dpone.backfill.core.reconcile.ReconcileLedger reconcileLedger(Connection state, String stateSchema) {
        throw new UnsupportedOperationException("reconciliation passes are not supported into a " + type().wireName()
                + " target yet");
    }

    /**
     * The target side of a pass into the published table {@code schema.table} over {@code target}: its load columns
     * and key under the target's names, chunk ranges under the plan (the chunk column named {@code chunkColumn} in the
     * target), the ledger in {@code stateSchema}.
     */
    default io.dpone.backfill.core.reconcile.PassTarget passTarget(Connection target, PassTable table) {
        throw new UnsupportedOperationException("reconciliation passes are not supported into a " + type().wireName()
                + " target yet");
    }
}

package io.dpone.backfill.target.postgres.publish;

import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;
import io.dpone.backfill.core.target.ArtifactOwnershipException;
import io.dpone.backfill.core.target.LiveTargetBaseline;
import io.dpone.backfill.core.target.LiveTargetChangedException;
import io.dpone.backfill.core.target.TableFingerprint;
import io.dpone.backfill.core.target.TableShapeDiff;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.target.postgres.ledger.PostgresLedgerStatements;
import io.dpone.backfill.target.postgres.publish.PostgresSwapRenamer.Carry;
import io.dpone.backfill.target.postgres.publish.PostgresSwapSequences.ColumnSequence;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Publication: the shadow becomes the live table in one transaction. Order inside it: lock timeout and target lock; an
 * existing receipt returns at once (replay); the lease read, which stops a deposed driver before any work; writers of
 * the live table blocked and its shape and content compared with the preparation baseline; identity checks (shadow
 * stamped by this run, backup name free, every deferred index built) before any change; the shadow locked exclusively
 * before its catalog rows change (an autovacuum of it would deadlock the swap otherwise); owner, grants, storage
 * parameters and sequences onto the shadow; live to backup, shadow to live; index, constraint and identity-sequence
 * names carried; stamps; lease fence and receipt, last (the fence's row lock would hold the driver's lease renewal
 * for the whole transaction).
 */
public final class PostgresSwap {
    private final Connection connection;
    private final String stateSchema;
    private final Duration lockTimeout;
    private final FaultPoints faults;

    PostgresSwap(Connection connection, String stateSchema, Duration lockTimeout, FaultPoints faults) {
        this.connection = connection;
        this.stateSchema = stateSchema;
        this.lockTimeout = lockTimeout;
        this.faults = faults;
    }

    PublicationReceipt publish(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                               LiveTargetBaseline baseline, TableFingerprint published) {
        return PostgresShadowTransaction.run(connection, "publish " + names.shadowTable() + " as " + liveTable, c -> {
            PostgresShadowTransaction.lockTimeout(c, lockTimeout);
            PostgresShadowTransaction.pinSearchPath(c);
            PostgresShadowTransaction.lockTarget(c, names.schema(), liveTable);
            PostgresLedgerStatements ledger = new PostgresLedgerStatements(c, stateSchema);
            Optional<PublicationReceipt> existing = ledger.publicationReceipt(lease.runKey());
            if (existing.isPresent()) {
                return existing.get();
            }
            ledger.requireLease(lease);
            PublicationReceipt receipt = swap(c, ledger, lease, names, liveTable, rows, baseline, published);
            // Swap and receipt done, commit not run: a crash here must leave the old table live.
            faults.reached(FaultPoint.IN_PUBLISH, -1);
            return receipt;
        });
    }

    private static PublicationReceipt swap(Connection c, PostgresLedgerStatements ledger, CampaignLease lease,
                                           ArtifactNames names, String liveTable, long rows,
                                           LiveTargetBaseline baseline, TableFingerprint published) throws SQLException {
        String schema = names.schema();
        PostgresCatalog catalog = new PostgresCatalog(c);
        Relation live = catalog.relation(schema, liveTable).filter(Relation::isTable)
                .orElseThrow(() -> new IllegalStateException("live target table " + schema + "." + liveTable
                        + " does not exist; nothing was changed"));
        requireUnchanged(c, catalog, schema, liveTable, baseline);
        Relation shadow = catalog.relation(schema, names.shadowTable())
                .orElseThrow(() -> new ArtifactOwnershipException("shadow " + schema + "." + names.shadowTable()
                        + " does not exist: nothing to publish for run key " + lease.runKey() + "; nothing was changed"));
        PostgresShadowCreator.requireOwned(shadow, lease.runKey());
        PostgresShadowTransaction.lockExclusive(c, schema, names.shadowTable());
        Optional<Relation> squatter = catalog.relation(schema, names.backupTable());
        if (squatter.isPresent()) {
            throw new ArtifactOwnershipException("backup name " + schema + "." + names.backupTable() + " is taken ("
                    + PostgresShadowStamp.describeOwner(squatter.get().comment()) + "): the live table cannot be"
                    + " kept as the backup; nothing was changed. Rename or drop that table after review");
        }
        PostgresSwapRenamer renamer = new PostgresSwapRenamer(c);
        List<Carry> carries = renamer.plan(live.oid(), shadow.oid(), n -> CarriedObjectNames.onShadow(names, n));
        List<String> missing = PostgresSwapRenamer.unmatched(carries);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the shadow lacks the live table's " + missing + ": build the deferred"
                    + " indexes before publishing; nothing was changed");
        }
        PostgresSwapSequences sequences = new PostgresSwapSequences(c);
        List<ColumnSequence> liveSequences = sequences.of(live.oid());
        List<ColumnSequence> shadowSequences = sequences.of(shadow.oid());

        new PostgresSwapAccess(c).copy(live, shadow);
        new PostgresShadowStorage(c).carry(live, shadow);
        sequences.carryPositions(live, shadow);
        sequences.transferOwnership(live, shadow);

        renamer.renameTable(schema, liveTable, names.backupTable());
        renamer.renameTable(schema, names.shadowTable(), liveTable);
        renamer.carry(schema, names.backupTable(), liveTable, carries, n -> CarriedObjectNames.onBackup(names, n));
        sequences.carryIdentityNames(liveSequences, shadowSequences, n -> CarriedObjectNames.onBackup(names, n));

        String userComment = live.comment();
        PostgresShadowSql.comment(c, "TABLE " + PostgresIdentifiers.qualified(schema, liveTable),
                PostgresShadowStamp.withUserComment(PostgresShadowStamp.published(lease.runKey()), userComment));
        PostgresShadowSql.comment(c, "TABLE " + PostgresIdentifiers.qualified(schema, names.backupTable()),
                PostgresShadowStamp.withUserComment(PostgresShadowStamp.backup(lease.runKey()), userComment));
        return ledger.insertPublication(lease, names, liveTable, rows, published);
    }

    /**
     * Blocks writers of the live table for the rest of the transaction (SHARE ROW EXCLUSIVE waits for in-flight
     * writers, bounded by lock_timeout), then compares its shape and content with what preparation recorded. Every
     * write committed before the lock is visible to the statements after it, so none can slip between the check
     * and the rename.
     */
    static void requireUnchanged(Connection c, PostgresCatalog catalog, String schema, String liveTable,
                                 LiveTargetBaseline baseline) throws SQLException {
        String name = schema + "." + liveTable;
        PostgresShadowTransaction.blockWriters(c, schema, liveTable);
        String change = TableShapeDiff.describe("live target " + name, baseline.shape(), catalog.liveShape(schema, liveTable));
        if (change != null) {
            throw LiveTargetChangedException.shapeChanged(change + ": the published table would not carry it; nothing was changed");
        }
        TableFingerprint now = PostgresTableFingerprint.of(c, schema, liveTable);
        if (!now.equals(baseline.content())) {
            throw LiveTargetChangedException.written("live target " + name + " was written after preparation ("
                    + now.changeSince(baseline.content()) + "): a swap would hide those writes in the backup; nothing"
                    + " was changed");
        }
    }
}

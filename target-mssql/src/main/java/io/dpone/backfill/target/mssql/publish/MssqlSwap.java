package io.dpone.backfill.target.mssql.publish;

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
import io.dpone.backfill.target.mssql.ledger.MssqlPublicationLedger;
import io.dpone.backfill.target.mssql.publish.MssqlSwapRenamer.Carry;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Publication: the shadow becomes the live table in one transaction. Order inside it: lock timeout, XACT_ABORT and the
 * transaction-owned target lock; an existing receipt returns at once (replay); the lease read, which stops a deposed
 * driver before any work; writers of the live table blocked and its shape and content compared with the preparation
 * baseline; identity checks (shadow stamped by this run, backup name free, every index and constraint rebuilt) before
 * any change; owner, permissions and the identity position onto the shadow; live to backup, shadow to live; index and
 * constraint names carried; stamps; lease fence and receipt, last (the fence's row lock would hold the driver's lease
 * renewal for the whole transaction).
 */
final class MssqlSwap {
    private final Connection connection;
    private final String stateSchema;
    private final Duration lockTimeout;
    private final FaultPoints faults;

    MssqlSwap(Connection connection, String stateSchema, Duration lockTimeout, FaultPoints faults) {
        this.connection = connection;
        this.stateSchema = stateSchema;
        this.lockTimeout = lockTimeout;
        this.faults = faults;
    }

    PublicationReceipt publish(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                               LiveTargetBaseline baseline, TableFingerprint published) {
        return MssqlShadowTransaction.run(connection, "publish " + names.shadowTable() + " as " + liveTable,
                names.schema(), liveTable, lockTimeout, c -> {
                    MssqlPublicationLedger ledger = new MssqlPublicationLedger(c, stateSchema);
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

    private static PublicationReceipt swap(Connection c, MssqlPublicationLedger ledger, CampaignLease lease,
                                           ArtifactNames names, String liveTable, long rows,
                                           LiveTargetBaseline baseline, TableFingerprint published) throws SQLException {
        String schema = names.schema();
        if (!MssqlTables.isTable(c, schema, liveTable)) {
            throw new IllegalStateException("live target table " + schema + "." + liveTable + " does not exist; nothing was changed");
        }
        if (baseline == null) {
            throw LiveTargetChangedException.shapeChanged("no live target baseline was recorded at preparation, so writes"
                    + " to " + schema + "." + liveTable + " cannot be ruled out; nothing was changed");
        }
        requireUnchanged(c, schema, liveTable, baseline);
        if (!MssqlTables.exists(c, schema, names.shadowTable())) {
            throw new ArtifactOwnershipException("shadow " + schema + "." + names.shadowTable() + " does not exist:"
                    + " nothing to publish for run key " + lease.runKey() + "; nothing was changed");
        }
        MssqlShadowCreator.requireOwned(c, schema, names.shadowTable(), lease.runKey());
        if (MssqlTables.exists(c, schema, names.backupTable())) {
            throw new ArtifactOwnershipException("backup name " + schema + "." + names.backupTable() + " is taken ("
                    + MssqlShadowStamp.describeOwner(MssqlShadowStamp.read(c, schema, names.backupTable()))
                    + "): the live table cannot be kept as the backup; nothing was changed. Rename or drop that"
                    + " table after review");
        }
        MssqlSwapRenamer renamer = new MssqlSwapRenamer(c);
        List<Carry> carries = renamer.plan(schema, liveTable, names.shadowTable(), n -> CarriedObjectNames.onShadow(names, n));
        List<String> missing = MssqlSwapRenamer.unmatched(carries);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the shadow lacks the live table's " + missing + ": build the deferred"
                    + " indexes before publishing (foreign keys, XML, spatial and nonclustered columnstore indexes are"
                    + " not rebuilt by this version); nothing was changed");
        }
        new MssqlSwapAccess(c).copy(schema, liveTable, names.shadowTable());
        new MssqlSwapIdentity(c).carry(schema, liveTable, names.shadowTable(),
                new MssqlCatalogColumns(c).of(schema, names.shadowTable()));

        renamer.renameTable(schema, liveTable, names.backupTable());
        renamer.renameTable(schema, names.shadowTable(), liveTable);
        renamer.carry(schema, names.backupTable(), liveTable, carries, n -> CarriedObjectNames.onBackup(names, n));

        MssqlShadowStamp.write(c, schema, liveTable, MssqlShadowStamp.published(lease.runKey()));
        MssqlShadowStamp.write(c, schema, names.backupTable(), MssqlShadowStamp.backup(lease.runKey()));
        return ledger.insertPublication(lease, names, liveTable, rows, published);
    }

    /**
     * Blocks writers of a table for the rest of the transaction: {@code TABLOCK, HOLDLOCK} takes a shared table lock
     * held until commit (writers wait, within LOCK_TIMEOUT; readers go on), so every write committed before it is
     * visible to the comparison after it and none can commit between the check and the rename. (Babelfish accepts
     * and ignores table hints; there the application lock and the rename's own locks are all that hold.)
     */
    static void blockWriters(Connection c, String schema, String table) throws SQLException {
        MssqlShadowTransaction.execute(c, "SELECT COUNT_BIG(*) AS held FROM " + MssqlObjectNames.twoPart(schema, table)
                + " WITH (TABLOCK, HOLDLOCK)");
    }

    /** Blocks writers, then compares the live table's shape and content with what preparation recorded. */
    static void requireUnchanged(Connection c, String schema, String liveTable, LiveTargetBaseline baseline)
            throws SQLException {
        String name = schema + "." + liveTable;
        blockWriters(c, schema, liveTable);
        String change = TableShapeDiff.describe("live target " + name, baseline.shape(),
                MssqlTargetCatalog.liveShape(c, schema, liveTable));
        if (change != null) {
            throw LiveTargetChangedException.shapeChanged(change + ": the published table would not carry it; nothing was changed");
        }
        TableFingerprint now = MssqlTableFingerprint.of(c, schema, liveTable);
        if (!now.equals(baseline.content())) {
            throw LiveTargetChangedException.written("live target " + name + " was written after preparation ("
                    + now.changeSince(baseline.content()) + "): a swap would hide those writes in the backup; nothing"
                    + " was changed");
        }
    }
}

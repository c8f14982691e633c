package io.dpone.backfill.core.target;

import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The order of a publication and of its rollback, written once for every target as {@code ChunkProtocol} is for
 * chunks (ADR 0035); each runs inside the one transaction its target opened.
 *
 * <p>Publication: an existing receipt returns at once (replay); the lease read stops a deposed driver before any
 * work; writers of the live table blocked and its shape and content compared with the preparation baseline; identity
 * checks (shadow stamped by this run, backup name free, every index and constraint rebuilt) before any change; owner,
 * permissions, storage and identity positions onto the shadow; other tables' foreign keys re-pointed at the shadow
 * and validated there; live to backup, shadow to live; names carried; stamps;
 * the lease fence and the receipt last.
 *
 * <p>Rollback: an existing rollback receipt returns at once; the lease read; the publication receipt must exist and
 * name these tables; the live table must carry this run's published stamp and the backup its backup stamp; writers
 * of the published table blocked and its content compared with the receipt's fingerprint; the shadow name free; other
 * tables' foreign keys re-pointed at the backup and validated there; then the published table goes back to the shadow name, the backup becomes the live table under its original names, and
 * the lease fence and the rollback receipt are written last.
 */
public final class SwapOrder {
    private SwapOrder() {
    }

    public static PublicationReceipt publish(SwapSteps steps, PublicationLedger ledger, CampaignLease lease, ArtifactNames names, String liveTable,
                                             long rows, LiveTargetBaseline baseline, TableFingerprint published,
                                             FaultPoints faults) throws SQLException {
        Optional<PublicationReceipt> existing = ledger.publicationReceipt(lease.runKey());
        if (existing.isPresent()) {
            return existing.get();
        }
        ledger.requireLease(lease);
        String schema = names.schema();
        String shadow = names.shadowTable();
        String backup = names.backupTable();
        if (!steps.isTable(liveTable)) {
            throw new IllegalStateException("live target table " + schema + "." + liveTable + " does not exist; nothing was changed");
        }
        if (baseline == null) {
            throw LiveTargetChangedException.shapeChanged("no live target baseline was recorded at preparation, so writes"
                    + " to " + schema + "." + liveTable + " cannot be ruled out; nothing was changed");
        }
        requireUnchanged(steps, schema, liveTable, baseline);
        if (!steps.exists(shadow)) {
            throw new ArtifactOwnershipException("shadow " + schema + "." + shadow + " does not exist: nothing to publish"
                    + " for run key " + lease.runKey() + "; nothing was changed");
        }
        steps.requireShadowOwned(shadow, lease.runKey());
        steps.lockExclusive(shadow);
        if (steps.exists(backup)) {
            throw new ArtifactOwnershipException("backup name " + schema + "." + backup + " is taken ("
                    + steps.describeOwner(backup) + "): the live table cannot be kept as the backup; nothing was"
                    + " changed. Rename or drop that table after review");
        }
        List<String> missing = steps.planCarries(liveTable, shadow, n -> CarriedObjectNames.onShadow(names, n));
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the shadow lacks the live table's " + missing + ": build the deferred"
                    + " indexes before publishing" + steps.notRebuilt() + "; nothing was changed");
        }
        steps.carryAttributes(liveTable, shadow);
        // Other tables' keys must check against the table that is live after the swap, not the backup.
        steps.repointInboundReferences(liveTable, shadow);

        steps.renameTable(liveTable, backup);
        steps.renameTable(shadow, liveTable);
        steps.carryNames(backup, liveTable, n -> CarriedObjectNames.onBackup(names, n));
        steps.stampPublished(liveTable, backup, lease.runKey());
        PublicationReceipt receipt = ledger.insertPublication(lease, names, liveTable, rows, published);
        // Swap and receipt done, commit not run: a crash here must leave the old table live.
        faults.reached(FaultPoint.IN_PUBLISH, -1);
        return receipt;
    }

    public static RollbackReceipt rollback(SwapSteps steps, PublicationLedger ledger, CampaignLease lease, ArtifactNames names, String liveTable,
                                           String reason, boolean acceptWrites) throws SQLException {
        Optional<RollbackReceipt> existing = ledger.rollbackReceipt(lease.runKey());
        if (existing.isPresent()) {
            return existing.get();
        }
        ledger.requireLease(lease);
        PublicationReceipt publication = ledger.publicationReceipt(lease.runKey()).orElseThrow(() -> new IllegalStateException(
                "run key " + lease.runKey() + " has no publication receipt: there is nothing to roll back"));
        requireSameTables(publication, names, liveTable);
        String schema = names.schema();
        String shadow = names.shadowTable();
        String backup = names.backupTable();
        requireStamped(steps, schema, liveTable, SwapStamp.PUBLISHED, lease.runKey(), "live table");
        requireStamped(steps, schema, backup, SwapStamp.BACKUP, lease.runKey(), "backup");
        steps.blockWriters(liveTable);
        TableFingerprint atPublication = ledger.publishedFingerprint(lease.runKey());
        TableFingerprint now = steps.fingerprintComparableWith(liveTable, atPublication);
        String accepted = PublishedTableWrittenException.writesSincePublication(names, liveTable, atPublication, now, acceptWrites);
        if (steps.exists(shadow)) {
            throw new ArtifactOwnershipException("shadow name " + schema + "." + shadow + " is taken ("
                    + steps.describeOwner(shadow) + "): the published table cannot move there; nothing was changed");
        }
        steps.lockExclusive(backup);
        steps.planCarries(liveTable, backup, n -> CarriedObjectNames.onBackup(names, n));
        steps.handBack(liveTable, backup);
        steps.repointInboundReferences(liveTable, backup);

        steps.renameTable(liveTable, shadow);
        steps.renameTable(backup, liveTable);
        steps.carryNames(shadow, liveTable, n -> CarriedObjectNames.onShadow(names, n));
        steps.stampRolledBack(liveTable, shadow, lease.runKey());
        return ledger.insertRollback(lease, reason, accepted);
    }

    /**
     * Blocks writers of the live table, then compares its shape and content with what preparation recorded. Every
     * write committed before the block is visible to the comparison, so none can slip between the check and the
     * rename.
     */
    static void requireUnchanged(SwapSteps steps, String schema, String liveTable, LiveTargetBaseline baseline)
            throws SQLException {
        String name = schema + "." + liveTable;
        steps.blockWriters(liveTable);
        String change = TableShapeDiff.describe("live target " + name, baseline.shape(), steps.liveShape(liveTable));
        if (change != null) {
            throw LiveTargetChangedException.shapeChanged(change + ": the published table would not carry it; nothing was changed");
        }
        TableFingerprint now = steps.fingerprint(liveTable);
        if (!now.equals(baseline.content())) {
            throw LiveTargetChangedException.written("live target " + name + " was written after preparation ("
                    + now.changeSince(baseline.content()) + "): a swap would hide those writes in the backup; nothing"
                    + " was changed");
        }
    }

    private static void requireStamped(SwapSteps steps, String schema, String table, SwapStamp stamp, String runKey,
                                       String role) throws SQLException {
        if (!steps.isTable(table)) {
            throw new ArtifactOwnershipException(role + " " + schema + "." + table
                    + " does not exist: cannot roll back; nothing was changed");
        }
        if (!steps.carries(table, stamp, runKey)) {
            throw new ArtifactOwnershipException(role + " " + schema + "." + table + " does not carry '"
                    + steps.stampText(stamp, runKey) + "' (found " + steps.describeOwner(table) + "): cannot roll back;"
                    + " nothing was changed");
        }
    }

    private static void requireSameTables(PublicationReceipt publication, ArtifactNames names, String liveTable) {
        if (!publication.schema().equals(names.schema()) || !publication.liveTable().equals(liveTable)
                || !publication.backupTable().equals(names.backupTable())
                || !publication.shadowTable().equals(names.shadowTable())) {
            throw new ArtifactOwnershipException("the publication receipt of run key " + publication.runKey()
                    + " names " + publication.schema() + "." + publication.liveTable() + " / " + publication.backupTable()
                    + " / " + publication.shadowTable() + ", not these tables: cannot roll back; nothing was changed");
        }
    }
}

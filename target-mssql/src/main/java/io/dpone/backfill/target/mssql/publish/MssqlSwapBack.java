package io.dpone.backfill.target.mssql.publish;

import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;
import io.dpone.backfill.core.target.ArtifactOwnershipException;
import io.dpone.backfill.core.target.PublishedTableWrittenException;
import io.dpone.backfill.core.target.TableFingerprint;
import io.dpone.backfill.target.mssql.ledger.MssqlPublicationLedger;
import io.dpone.backfill.target.mssql.publish.MssqlSwapRenamer.Carry;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Operator-authorised rollback of a publication, in one transaction: target lock; an existing rollback receipt returns
 * at once (replay); the lease read, which stops a deposed driver before any work; the publication receipt must exist
 * and name these tables; writers of the published table blocked and its content compared with the receipt's
 * fingerprint; the live table must carry this run's published stamp, the backup its backup stamp, and the shadow name
 * must be free. Then the published table goes back to the shadow name (its index and constraint names back to the
 * temporary ones, stamped as this run's shadow again), the backup becomes the live table under its original names with
 * its stamp removed, and the lease fence and the rollback receipt are written last (the fence's row lock would hold the
 * driver's lease renewal for the whole transaction). The backup's owner and permissions were never changed.
 */
final class MssqlSwapBack {
    private final Connection connection;
    private final String stateSchema;
    private final Duration lockTimeout;

    MssqlSwapBack(Connection connection, String stateSchema, Duration lockTimeout) {
        this.connection = connection;
        this.stateSchema = stateSchema;
        this.lockTimeout = lockTimeout;
    }

    RollbackReceipt rollback(CampaignLease lease, ArtifactNames names, String liveTable, String reason, boolean acceptWrites) {
        return MssqlShadowTransaction.run(connection, "roll back " + liveTable + " to " + names.backupTable(),
                names.schema(), liveTable, lockTimeout, c -> {
                    MssqlPublicationLedger ledger = new MssqlPublicationLedger(c, stateSchema);
                    Optional<RollbackReceipt> existing = ledger.rollbackReceipt(lease.runKey());
                    if (existing.isPresent()) {
                        return existing.get();
                    }
                    ledger.requireLease(lease);
                    PublicationReceipt publication = ledger.publicationReceipt(lease.runKey()).orElseThrow(() ->
                            new IllegalStateException("run key " + lease.runKey() + " has no publication receipt:"
                                    + " there is nothing to roll back"));
                    requireSameTables(publication, names, liveTable);
                    requireStamped(c, names.schema(), liveTable, MssqlShadowStamp.published(lease.runKey()), "live table");
                    requireStamped(c, names.schema(), names.backupTable(), MssqlShadowStamp.backup(lease.runKey()), "backup");
                    String accepted = writesSincePublication(c, ledger, lease, names, liveTable, acceptWrites);
                    swapBack(c, lease, names, liveTable);
                    return ledger.insertRollback(lease, reason, accepted);
                });
    }

    private static void swapBack(Connection c, CampaignLease lease, ArtifactNames names, String liveTable)
            throws SQLException {
        String schema = names.schema();
        if (MssqlTables.exists(c, schema, names.shadowTable())) {
            throw new ArtifactOwnershipException("shadow name " + schema + "." + names.shadowTable() + " is taken ("
                    + MssqlShadowStamp.describeOwner(MssqlShadowStamp.read(c, schema, names.shadowTable()))
                    + "): the published table cannot move there; nothing was changed");
        }
        MssqlSwapRenamer renamer = new MssqlSwapRenamer(c);
        List<Carry> carries = renamer.plan(schema, liveTable, names.backupTable(), n -> CarriedObjectNames.onBackup(names, n));

        renamer.renameTable(schema, liveTable, names.shadowTable());
        renamer.renameTable(schema, names.backupTable(), liveTable);
        renamer.carry(schema, names.shadowTable(), liveTable, carries, n -> CarriedObjectNames.onShadow(names, n));

        MssqlShadowStamp.drop(c, schema, liveTable);
        MssqlShadowStamp.write(c, schema, names.shadowTable(), MssqlShadowStamp.shadow(lease.runKey()));
    }

    /**
     * Blocks writers of the published table, then compares its content with the publication receipt's fingerprint.
     * Returns null when nothing changed; a description of the writes when they are accepted; throws
     * {@link PublishedTableWrittenException} otherwise.
     */
    private static String writesSincePublication(Connection c, MssqlPublicationLedger ledger, CampaignLease lease,
                                                 ArtifactNames names, String liveTable, boolean acceptWrites)
            throws SQLException {
        String schema = names.schema();
        MssqlSwap.blockWriters(c, schema, liveTable);
        TableFingerprint atPublication = ledger.publishedFingerprint(lease.runKey());
        TableFingerprint now = MssqlTableFingerprint.of(c, schema, liveTable);
        return PublishedTableWrittenException.writesSincePublication(names, liveTable, atPublication, now, acceptWrites);
    }

    private static void requireStamped(Connection c, String schema, String table, String stamp, String role)
            throws SQLException {
        if (!MssqlTables.isTable(c, schema, table)) {
            throw new ArtifactOwnershipException(role + " " + schema + "." + table
                    + " does not exist: cannot roll back; nothing was changed");
        }
        String found = MssqlShadowStamp.read(c, schema, table);
        if (!stamp.equals(found)) {
            throw new ArtifactOwnershipException(role + " " + schema + "." + table + " does not carry '" + stamp
                    + "' (found " + MssqlShadowStamp.describeOwner(found) + "): cannot roll back; nothing was changed");
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

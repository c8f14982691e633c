package io.dpone.backfill.target.postgres.publish;

import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;
import io.dpone.backfill.core.target.ArtifactOwnershipException;
import io.dpone.backfill.core.target.PublishedTableWrittenException;
import io.dpone.backfill.core.target.TableFingerprint;
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
 * Operator-authorised rollback of a publication, in one transaction: target lock; an existing rollback receipt returns
 * at once (replay); the lease read, which stops a deposed driver before any work; the publication receipt must exist
 * and name these tables; the live table must carry this run's published stamp and the backup its backup stamp, and the
 * shadow name must be free. Then the published table goes back to the shadow name (its index and constraint names back
 * to the temporary ones, stamped as this run's shadow again), the backup becomes the live table under its original
 * index, constraint and identity-sequence names with its own comment, serial sequences follow back, and the lease fence
 * and the rollback receipt are written last (the fence's row lock would hold the driver's lease renewal for the whole
 * transaction). The backup's owner and grants were never changed, so they are the ones it had before publication.
 */
public final class PostgresSwapBack {
    private final Connection connection;
    private final String stateSchema;
    private final Duration lockTimeout;

    PostgresSwapBack(Connection connection, String stateSchema, Duration lockTimeout) {
        this.connection = connection;
        this.stateSchema = stateSchema;
        this.lockTimeout = lockTimeout;
    }

    RollbackReceipt rollback(CampaignLease lease, ArtifactNames names, String liveTable, String reason, boolean acceptWrites) {
        return PostgresShadowTransaction.run(connection, "roll back " + liveTable + " to " + names.backupTable(), c -> {
            PostgresShadowTransaction.lockTimeout(c, lockTimeout);
            PostgresShadowTransaction.pinSearchPath(c);
            PostgresShadowTransaction.lockTarget(c, names.schema(), liveTable);
            PostgresLedgerStatements ledger = new PostgresLedgerStatements(c, stateSchema);
            Optional<RollbackReceipt> existing = ledger.rollbackReceipt(lease.runKey());
            if (existing.isPresent()) {
                return existing.get();
            }
            ledger.requireLease(lease);
            PublicationReceipt publication = ledger.publicationReceipt(lease.runKey()).orElseThrow(() -> new IllegalStateException(
                    "run key " + lease.runKey() + " has no publication receipt: there is nothing to roll back"));
            requireSameTables(publication, names, liveTable);
            String accepted = writesSincePublication(c, ledger, lease, names, liveTable, acceptWrites);
            swapBack(c, lease, names, liveTable);
            return ledger.insertRollback(lease, reason, accepted);
        });
    }

    private static void swapBack(Connection c, CampaignLease lease, ArtifactNames names, String liveTable)
            throws SQLException {
        String schema = names.schema();
        PostgresCatalog catalog = new PostgresCatalog(c);
        Relation published = stamped(catalog, schema, liveTable, PostgresShadowStamp.published(lease.runKey()), "live table");
        Relation backup = stamped(catalog, schema, names.backupTable(), PostgresShadowStamp.backup(lease.runKey()), "backup");
        Optional<Relation> squatter = catalog.relation(schema, names.shadowTable());
        if (squatter.isPresent()) {
            throw new ArtifactOwnershipException("shadow name " + schema + "." + names.shadowTable() + " is taken ("
                    + PostgresShadowStamp.describeOwner(squatter.get().comment()) + "): the published table cannot"
                    + " move there; nothing was changed");
        }
        PostgresShadowTransaction.lockExclusive(c, schema, names.backupTable());
        PostgresSwapRenamer renamer = new PostgresSwapRenamer(c);
        List<Carry> carries = renamer.plan(published.oid(), backup.oid(), n -> CarriedObjectNames.onBackup(names, n));
        PostgresSwapSequences sequences = new PostgresSwapSequences(c);
        List<ColumnSequence> publishedSequences = sequences.of(published.oid());
        List<ColumnSequence> backupSequences = sequences.of(backup.oid());
        sequences.transferOwnership(published, backup);

        renamer.renameTable(schema, liveTable, names.shadowTable());
        renamer.renameTable(schema, names.backupTable(), liveTable);
        renamer.carry(schema, names.shadowTable(), liveTable, carries, n -> CarriedObjectNames.onShadow(names, n));
        sequences.carryIdentityNames(publishedSequences, backupSequences, n -> CarriedObjectNames.onShadow(names, n));

        PostgresShadowSql.comment(c, "TABLE " + PostgresIdentifiers.qualified(schema, liveTable),
                PostgresShadowStamp.userComment(backup.comment()));
        PostgresShadowSql.comment(c, "TABLE " + PostgresIdentifiers.qualified(schema, names.shadowTable()),
                PostgresShadowStamp.shadow(lease.runKey()));
    }

    /**
     * Blocks writers of the published table, then compares its content with the publication receipt's
     * fingerprint. Returns null when nothing changed; a description of the writes when they are accepted; throws
     * {@link PublishedTableWrittenException} otherwise.
     */
    private static String writesSincePublication(Connection c, PostgresLedgerStatements ledger, CampaignLease lease,
                                                 ArtifactNames names, String liveTable, boolean acceptWrites)
            throws SQLException {
        String schema = names.schema();
        PostgresShadowTransaction.blockWriters(c, schema, liveTable);
        TableFingerprint atPublication = ledger.publishedFingerprint(lease.runKey());
        TableFingerprint now = PostgresTableFingerprint.comparableWith(c, schema, liveTable, atPublication);
        return PublishedTableWrittenException.writesSincePublication(names, liveTable, atPublication, now, acceptWrites);
    }

    private static Relation stamped(PostgresCatalog catalog, String schema, String table, String stamp, String role)
            throws SQLException {
        Relation relation = catalog.relation(schema, table).filter(Relation::isTable)
                .orElseThrow(() -> new ArtifactOwnershipException(role + " " + schema + "." + table
                        + " does not exist: cannot roll back; nothing was changed"));
        if (!PostgresShadowStamp.startsWith(relation.comment(), stamp)) {
            throw new ArtifactOwnershipException(role + " " + schema + "." + table + " does not carry '" + stamp
                    + "' (found " + PostgresShadowStamp.describeOwner(relation.comment()) + "): cannot roll back;"
                    + " nothing was changed");
        }
        return relation;
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

package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.publish.PublicationLedger;
import io.dpone.backfill.core.publish.TableFingerprint;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

/**
 * The ledger rows the SQL Server publisher reads and writes inside its own transactions (the lease fence and the
 * publication and rollback receipts), through {@link MssqlLedgerText} on the publisher's connection, so they
 * commit or vanish with the swap they describe.
 */
public final class MssqlPublicationLedger implements PublicationLedger {
    private final MssqlLedgerText statements;
    private final MssqlJdbc sql;

    public MssqlPublicationLedger(Connection connection, String stateSchema) {
        this.statements = new MssqlLedgerText(stateSchema);
        this.sql = new MssqlJdbc(connection);
    }

    /** Whether the ledger's tables exist (a shadow can be prepared before the first ledger write). */
    public boolean present() throws SQLException {
        return sql.one(MssqlLedgerText.tableExists(), rs -> rs.getInt("present") == 1,
                statements.campaignObjectName()).orElse(false);
    }

    /**
     * Refuses a deposed driver's swap before it does any work: a read of the lease fence, which keeps no lock.
     * Only {@link #fenceSwap} at the end guarantees the lease at commit.
     */
    @Override
    public void requireLease(CampaignLease lease) throws SQLException {
        if (sql.one(statements.leaseHeld(), rs -> 1, lease.runKey(), lease.owner(), lease.epoch()).isEmpty()) {
            throw LeaseLostException.swapRefused(lease);
        }
    }

    /**
     * Proves the campaign lease in the caller's transaction; zero rows updated means it was lost. It runs last, just
     * before the receipt: its row lock on the campaign holds every lease renewal until commit, so proved first it
     * held the driver's renewal behind the swap's lock waits and scans (ADR 0024).
     */
    private void fenceSwap(CampaignLease lease) throws SQLException {
        if (sql.update(statements.proveLease(), lease.runKey(), lease.owner(), lease.epoch()) != 1) {
            throw LeaseLostException.swapFenced(lease);
        }
    }

    @Override
    public Optional<PublicationReceipt> publicationReceipt(String runKey) throws SQLException {
        return sql.one(statements.publicationReceipt(), MssqlLedgerRows.ROWS::publication, runKey);
    }

    /** The published table's content at publication, or null for a receipt written without one. */
    @Override
    public TableFingerprint publishedFingerprint(String runKey) throws SQLException {
        return sql.one(statements.publishedFingerprint(), rs -> TableFingerprint.decode(rs.getString(1)), runKey)
                .orElse(null);
    }

    /** Inside the swap's transaction, as its last statement: fences the lease ({@link #fenceSwap}), then the receipt. */
    @Override
    public PublicationReceipt insertPublication(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                                                TableFingerprint published) throws SQLException {
        fenceSwap(lease);
        PublicationReceipt receipt = sql.one(statements.insertPublicationReceipt(), MssqlLedgerRows.ROWS::publication,
                lease.runKey(), UUID.randomUUID().toString(), names.schema(), liveTable, names.backupTable(),
                names.shadowTable(), rows, lease.epoch(), published.encoded()).orElseThrow();
        // The approval (issue 28), if the campaign needed one, is part of what the receipt records.
        sql.update(statements.copyApprovalIntoReceipt(), lease.runKey());
        return receipt;
    }

    @Override
    public Optional<RollbackReceipt> rollbackReceipt(String runKey) throws SQLException {
        return sql.one(statements.rollbackReceipt(), MssqlLedgerRows.ROWS::rollback, runKey);
    }

    /**
     * Inside the swap-back's transaction, as its last statement: fences the lease ({@link #fenceSwap}), then the
     * receipt; {@code acceptedWrites} null when none.
     */
    @Override
    public RollbackReceipt insertRollback(CampaignLease lease, String reason, String acceptedWrites) throws SQLException {
        fenceSwap(lease);
        return sql.one(statements.insertRollbackReceipt(), MssqlLedgerRows.ROWS::rollback, lease.runKey(),
                UUID.randomUUID().toString(), reason, lease.epoch(), acceptedWrites).orElseThrow();
    }

    @Override
    public Optional<String> groupOf(String runKey) throws SQLException {
        return sql.one(statements.groupOf(), rs -> rs.getString(1), runKey);
    }

    @Override
    public java.util.List<io.dpone.backfill.core.ledger.GroupMember> groupMembers(String group) throws SQLException {
        return MssqlGroupMembers.read(sql, statements, group);
    }

    /** Another member's receipt: its campaign row locked while still Publishing, then the receipt and its approval. */
    @Override
    public PublicationReceipt insertMemberPublication(String runKey, ArtifactNames names, String liveTable, long rows,
                                                      TableFingerprint published) throws SQLException {
        if (sql.one(statements.lockPublishingMember(), rs -> 1, runKey).isEmpty()) {
            throw new IllegalStateException("group member " + liveTable + " (run key " + runKey + ") is no longer"
                    + " Publishing: the group cannot swap as one; nothing was changed");
        }
        PublicationReceipt receipt = sql.one(statements.insertMemberPublicationReceipt(), MssqlLedgerRows.ROWS::publication,
                runKey, UUID.randomUUID().toString(), names.schema(), liveTable, names.backupTable(), names.shadowTable(),
                rows, published.encoded(), runKey).orElseThrow();
        sql.update(statements.copyApprovalIntoReceipt(), runKey);
        return receipt;
    }

    @Override
    public RollbackReceipt insertMemberRollback(String runKey, String reason, String acceptedWrites) throws SQLException {
        sql.one(statements.lockMember(), rs -> 1, runKey).orElseThrow(() -> new IllegalStateException(
                "group member run key " + runKey + " is not in the ledger; nothing was changed"));
        return sql.one(statements.insertMemberRollbackReceipt(), MssqlLedgerRows.ROWS::rollback, runKey,
                UUID.randomUUID().toString(), reason, acceptedWrites, runKey).orElseThrow();
    }
}

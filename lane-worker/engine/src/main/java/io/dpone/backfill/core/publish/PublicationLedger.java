package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;

import io.dpone.backfill.core.ledger.GroupMember;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The ledger's part in a publication and its rollback, on the swap's own connection and transaction: the receipt
 * commits with the swap or not at all. {@link SwapOrder} reads and writes it; each target's ledger implements it.
 */
public interface PublicationLedger {

    Optional<PublicationReceipt> publicationReceipt(String runKey) throws SQLException;

    Optional<RollbackReceipt> rollbackReceipt(String runKey) throws SQLException;

    /** Throws a lease-lost failure unless {@code lease} is the campaign's current, unexpired lease. */
    void requireLease(CampaignLease lease) throws SQLException;

    /** The published table's content at publication, or null for a receipt written without one. */
    TableFingerprint publishedFingerprint(String runKey) throws SQLException;

    /** The lease fence and the publication receipt: last, as their row lock would hold the lease renewal. */
    PublicationReceipt insertPublication(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                                         TableFingerprint published) throws SQLException;

    /** The lease fence and the rollback receipt: last, for the same reason. */
    RollbackReceipt insertRollback(CampaignLease lease, String reason, String acceptedWrites) throws SQLException;

    /** The publication group the campaign joined, if any (issue 27). */
    Optional<String> groupOf(String runKey) throws SQLException;

    /** Every campaign of {@code group}, with its phase, read inside the swap's transaction. */
    List<GroupMember> groupMembers(String group) throws SQLException;

    /**
     * Another member's publication receipt, written by the member whose driver runs the group's swap: fenced by that
     * member's campaign row (locked, still Publishing, no receipt yet) instead of a lease this driver does not hold.
     */
    PublicationReceipt insertMemberPublication(String runKey, ArtifactNames names, String liveTable, long rows,
                                               TableFingerprint published) throws SQLException;

    /** Another member's rollback receipt, written with the group's rollback; fenced by that member's campaign row. */
    RollbackReceipt insertMemberRollback(String runKey, String reason, String acceptedWrites) throws SQLException;
}

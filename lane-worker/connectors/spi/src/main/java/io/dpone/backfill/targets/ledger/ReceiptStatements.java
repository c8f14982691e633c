package io.dpone.backfill.targets.ledger;

import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The receipts' statements on the state connection: what the store reads of chunk, publication, handoff and rollback
 * receipts, the handoff receipt it writes, and the verification summary. Chunk receipts are written by the chunk
 * sink in the chunk's transaction, and publication and rollback receipts by the swap in its own.
 */
public interface ReceiptStatements {

    boolean hasChunkReceipt(String runKey, int chunkId) throws SQLException;

    /** Each committed chunk's content digest, by chunk id (null where its receipt has none). */
    Map<Integer, String> chunkDigests(String runKey) throws SQLException;

    Optional<PublicationReceipt> publicationReceipt(String runKey) throws SQLException;

    Optional<HandoffReceipt> handoffReceipt(String runKey) throws SQLException;

    /**
     * Inserts the handoff receipt unless one exists, in the caller's transaction under a proved lease; returns the
     * stored receipt's anchor (this one's, or the earlier receipt's).
     */
    Optional<String> insertHandoff(CampaignLease lease, HandoffReceipt receipt) throws SQLException;

    Optional<RollbackReceipt> rollbackReceipt(String runKey) throws SQLException;

    void recordVerification(String runKey, String summaryJson) throws SQLException;

    Optional<String> verification(String runKey) throws SQLException;

    /** See {@code LedgerStore.joinGroup}: a repeat keeps the first row. */
    void joinGroup(String runKey, String group, String termsDigest, String schema, String liveTable) throws SQLException;

    /** Fenced by the lease; false when it is lost. A repeat keeps the first readiness. */
    boolean markGroupReady(CampaignLease lease, io.dpone.backfill.core.ledger.GroupMember.Readiness readiness) throws SQLException;

    List<io.dpone.backfill.core.ledger.GroupMember> groupMembers(String group) throws SQLException;
}

package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.targets.ledger.ReceiptStatements;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The receipts' statements on SQL Server, executed on the ledger's state connection. Chunk receipts are written by
 * {@link MssqlChunkReceipts} in a lane's chunk transaction, publication and rollback receipts by
 * {@link MssqlPublicationLedger} in the swap's. The text of every statement is {@link MssqlLedgerText}'.
 */
final class MssqlReceiptStatements implements ReceiptStatements {
    private static final int LOCK_TIMEOUT_ERROR = 1222;

    private final MssqlJdbc sql;
    private final MssqlLedgerText statements;

    MssqlReceiptStatements(MssqlJdbc sql, MssqlLedgerText statements) {
        this.sql = sql;
        this.statements = statements;
    }

    @Override
    public boolean hasChunkReceipt(String runKey, int chunkId) throws SQLException {
        try {
            return sql.one(statements.hasChunkReceipt(), rs -> rs.getInt("present") == 1, runKey, chunkId).orElse(false);
        } catch (SQLException e) {
            if (receiptInFlight(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * The receipt probe timed out on a lock (1222): another transaction holds the chunk's receipt uncommitted (a
     * zombie lane past its lease), where READPAST was not honoured. No committed receipt exists, so the lane goes on
     * and its own receipt insert waits for that transaction, bounded; the probe must not end the lane.
     */
    static boolean receiptInFlight(SQLException e) {
        return e.getErrorCode() == LOCK_TIMEOUT_ERROR;
    }

    @Override
    public Map<Integer, String> chunkDigests(String runKey) throws SQLException {
        Map<Integer, String> digests = new HashMap<>();
        sql.list(statements.chunkDigests(), rs -> {
            digests.put(rs.getInt("chunk_id"), rs.getString("content_digest"));
            return null;
        }, runKey);
        return digests;
    }

    @Override
    public Optional<PublicationReceipt> publicationReceipt(String runKey) throws SQLException {
        return sql.one(statements.publicationReceipt(), MssqlLedgerRows.ROWS::publication, runKey);
    }

    @Override
    public Optional<HandoffReceipt> handoffReceipt(String runKey) throws SQLException {
        return sql.one(statements.handoffReceipt(), MssqlLedgerRows.ROWS::handoff, runKey);
    }

    @Override
    public Optional<String> insertHandoff(CampaignLease lease, HandoffReceipt receipt) throws SQLException {
        sql.update(statements.insertHandoffReceipt(), receipt.runKey(), receipt.receiptId(), receipt.anchorXmin(),
                lease.epoch(), MssqlJdbc.time(receipt.committedAt()), receipt.runKey());
        return sql.one(statements.handoffAnchor(), rs -> rs.getString("anchor_xmin"), receipt.runKey());
    }

    @Override
    public Optional<RollbackReceipt> rollbackReceipt(String runKey) throws SQLException {
        return sql.one(statements.rollbackReceipt(), MssqlLedgerRows.ROWS::rollback, runKey);
    }

    @Override
    public void recordVerification(String runKey, String summaryJson) throws SQLException {
        sql.update(statements.recordVerification(), summaryJson, runKey);
    }

    @Override
    public Optional<String> verification(String runKey) throws SQLException {
        return sql.one(statements.verification(), rs -> Optional.ofNullable(rs.getString("verification")), runKey)
                .flatMap(v -> v);
    }

    @Override
    public void joinGroup(String runKey, String group, String termsDigest, String schema, String liveTable) throws SQLException {
        sql.update(statements.joinGroup(), runKey, group, termsDigest, schema, liveTable, runKey);
    }

    @Override
    public boolean markGroupReady(CampaignLease lease, io.dpone.backfill.core.ledger.GroupMember.Readiness r) throws SQLException {
        return sql.update(statements.markGroupReady(), r.shadowTable(), r.backupTable(), r.rows(), r.liveBaseline(),
                r.publishedFingerprint(), lease.runKey(), lease.runKey(), lease.owner(), lease.epoch()) == 1;
    }

    @Override
    public java.util.List<io.dpone.backfill.core.ledger.GroupMember> groupMembers(String group) throws SQLException {
        return MssqlGroupMembers.read(sql, statements, group);
    }
}

package io.dpone.backfill.targets.postgres.ledger;

import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.GroupMember;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.publish.PublicationLedger;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.targets.ledger.ReceiptStatements;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The receipts' statements on PostgreSQL: chunk receipts (written in a lane's chunk transaction), the publication and
 * rollback receipts with their lease fence (in the swap's transaction, as {@link PublicationLedger}), the handoff
 * receipt and the verification summary.
 */
public final class PostgresReceiptStatements extends PostgresLedgerTables implements ReceiptStatements, PublicationLedger {

    public PostgresReceiptStatements(Connection connection, String stateSchema) {
        super(connection, stateSchema);
    }

    @Override
    public boolean hasChunkReceipt(String runKey, int chunkId) throws SQLException {
        return sql.one("SELECT EXISTS (SELECT 1 FROM " + chunkReceipt + " WHERE run_key = ? AND chunk_id = ?)"
                + " AS present", rs -> rs.getBoolean("present"), runKey, chunkId).orElse(false);
    }

    @Override
    public java.util.Map<Integer, String> chunkDigests(String runKey) throws SQLException {
        java.util.Map<Integer, String> digests = new java.util.HashMap<>();
        sql.list("SELECT chunk_id, content_digest FROM " + chunkReceipt + " WHERE run_key = ?", rs -> {
            digests.put(rs.getInt("chunk_id"), rs.getString("content_digest"));
            return null;
        }, runKey);
        return digests;
    }

    @Override
    public void recordVerification(String runKey, String summaryJson) throws SQLException {
        sql.update("UPDATE " + campaign + " SET verification = ? WHERE run_key = ?", summaryJson, runKey);
    }

    @Override
    public Optional<String> verification(String runKey) throws SQLException {
        return sql.one("SELECT verification FROM " + campaign + " WHERE run_key = ?", rs -> Optional.ofNullable(rs.getString("verification")),
                runKey).flatMap(v -> v);
    }


    public boolean insertChunkReceipt(ChunkClaim claim) throws SQLException {
        return sql.update("INSERT INTO " + chunkReceipt + " (run_key, chunk_id, epoch, owner) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT (run_key, chunk_id) DO NOTHING", claim.runKey(), claim.chunkId(), claim.epoch(), claim.owner()) == 1;
    }

    /** {@code contentDigest}: the rows' content digest (ADR 0018), or null when the lane computed none. */
    public void recordReceiptRows(ChunkClaim claim, long rows, String contentDigest) throws SQLException {
        if (sql.update("UPDATE " + chunkReceipt + " SET rows_loaded = ?, content_digest = ?::text"
                        + " WHERE run_key = ? AND chunk_id = ? AND epoch = ?",
                rows, contentDigest, claim.runKey(), claim.chunkId(), claim.epoch()) != 1) {
            throw new SQLException("chunk receipt vanished inside its own transaction");
        }
    }

    /**
     * Refuses a deposed driver's swap before it does any work: a read of the lease fence, which takes no row lock.
     * Only {@link #fenceSwap} at the end guarantees the lease at commit.
     */
    @Override
    public void requireLease(CampaignLease lease) throws SQLException {
        if (sql.one("SELECT 1 FROM " + campaign + " WHERE " + LEASE_FENCE, rs -> 1, lease.runKey(), lease.owner(),
                lease.epoch()).isEmpty()) {
            throw LeaseLostException.swapRefused(lease);
        }
    }

    /**
     * Proves the caller still holds the campaign lease, by the database's clock, inside the swap's transaction:
     * a driver deposed by a newer epoch, or whose lease ran out, must not publish or roll back. It runs last, just
     * before the receipt: its row lock on the campaign holds every lease renewal until commit, so proved first it
     * held the driver's renewal behind the swap's lock waits and scans, and a swap longer than most of the TTL made
     * the driver abort itself as hung (ADR 0024). Proved last, it fences the same commit.
     */
    private void fenceSwap(CampaignLease lease) throws SQLException {
        if (!fenced("updated_at = pg_catalog.now()", "", lease)) {
            throw LeaseLostException.swapFenced(lease);
        }
    }


    @Override
    public Optional<PublicationReceipt> publicationReceipt(String runKey) throws SQLException {
        return sql.one("SELECT " + PostgresLedgerRows.PUBLICATION_COLUMNS + " FROM " + publicationReceipt + " WHERE run_key = ?",
                PostgresLedgerRows.ROWS::publication, runKey);
    }

    /** Inside the swap's transaction, as its last statement: fences the lease ({@link #fenceSwap}), then the receipt. */
    @Override
    public PublicationReceipt insertPublication(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                                                TableFingerprint published) throws SQLException {
        fenceSwap(lease);
        String receiptId = UUID.randomUUID().toString();
        // The approval (issue 28), if the campaign needed one, is part of what the receipt records.
        return sql.one("INSERT INTO " + publicationReceipt + " (run_key, receipt_id, target_schema, live_table, backup_table,"
                        + " shadow_table, rows_published, lease_epoch, published_fingerprint, approved_by, approved_at)"
                        + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, c.approved_by, c.approved_at FROM " + campaign + " c"
                        + " WHERE c.run_key = ?"
                        + " RETURNING " + PostgresLedgerRows.PUBLICATION_COLUMNS, PostgresLedgerRows.ROWS::publication,
                lease.runKey(), receiptId, names.schema(), liveTable, names.backupTable(), names.shadowTable(), rows,
                lease.epoch(), published.encoded(), lease.runKey()).orElseThrow();
    }

    /** The published table's content at publication, or null for a receipt written without one. */
    @Override
    public TableFingerprint publishedFingerprint(String runKey) throws SQLException {
        return sql.one("SELECT published_fingerprint FROM " + publicationReceipt + " WHERE run_key = ?",
                rs -> TableFingerprint.decode(rs.getString(1)), runKey).orElse(null);
    }

    @Override
    public Optional<HandoffReceipt> handoffReceipt(String runKey) throws SQLException {
        return sql.one("SELECT " + PostgresLedgerRows.HANDOFF_COLUMNS + " FROM " + handoffReceipt + " WHERE run_key = ?",
                PostgresLedgerRows.ROWS::handoff, runKey);
    }

    /** Inserts the receipt unless one exists; returns the anchor the stored receipt holds. */
    @Override
    public Optional<String> insertHandoff(CampaignLease lease, HandoffReceipt receipt) throws SQLException {
        sql.update("INSERT INTO " + handoffReceipt + " (run_key, receipt_id, anchor_xmin, lease_epoch, committed_at)"
                        + " VALUES (?, ?, ?, ?, coalesce(?, now())) ON CONFLICT (run_key) DO NOTHING",
                receipt.runKey(), receipt.receiptId(), receipt.anchorXmin(), lease.epoch(),
                PostgresJdbc.timestamp(receipt.committedAt()));
        return sql.one("SELECT anchor_xmin FROM " + handoffReceipt + " WHERE run_key = ?",
                rs -> rs.getString("anchor_xmin"), receipt.runKey());
    }

    @Override
    public Optional<RollbackReceipt> rollbackReceipt(String runKey) throws SQLException {
        return sql.one("SELECT " + PostgresLedgerRows.ROLLBACK_COLUMNS + " FROM " + rollbackReceipt + " WHERE run_key = ?",
                PostgresLedgerRows.ROWS::rollback, runKey);
    }

    /**
     * Inside the swap-back's transaction, as its last statement: fences the lease ({@link #fenceSwap}), then the
     * receipt. {@code acceptedWrites}: null, or the writes after publication that the operator accepted to move away.
     */
    @Override
    public RollbackReceipt insertRollback(CampaignLease lease, String reason, String acceptedWrites) throws SQLException {
        fenceSwap(lease);
        return sql.one("INSERT INTO " + rollbackReceipt + " (run_key, receipt_id, reason, lease_epoch, accepted_writes)"
                        + " VALUES (?, ?, ?, ?, ?) RETURNING " + PostgresLedgerRows.ROLLBACK_COLUMNS, PostgresLedgerRows.ROWS::rollback,
                lease.runKey(), UUID.randomUUID().toString(), reason, lease.epoch(), acceptedWrites).orElseThrow();
    }

    // Publication groups (issue 27, ADR 0041).

    private static final String GROUP_MEMBER_COLUMNS = "g.group_name, g.run_key, g.terms_digest, g.target_schema,"
            + " g.live_table, c.phase, g.shadow_table, g.backup_table, g.rows_published, g.live_baseline,"
            + " g.published_fingerprint, g.ready_at";

    @Override
    public void joinGroup(String runKey, String group, String termsDigest, String schema, String liveTable) throws SQLException {
        sql.update("INSERT INTO " + groupMember + " (run_key, group_name, terms_digest, target_schema, live_table)"
                + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (run_key) DO NOTHING", runKey, group, termsDigest, schema, liveTable);
    }

    /** Fenced by the lease in the same statement: the campaign row must still be the caller's. */
    @Override
    public boolean markGroupReady(CampaignLease lease, GroupMember.Readiness r) throws SQLException {
        return sql.update("UPDATE " + groupMember + " SET shadow_table = coalesce(shadow_table, ?),"
                        + " backup_table = coalesce(backup_table, ?), rows_published = coalesce(rows_published, ?),"
                        + " live_baseline = coalesce(live_baseline, ?), published_fingerprint = coalesce(published_fingerprint, ?),"
                        + " ready_at = coalesce(ready_at, now()) WHERE run_key = ? AND EXISTS (SELECT 1 FROM " + campaign
                        + " WHERE " + LEASE_FENCE + ")",
                r.shadowTable(), r.backupTable(), r.rows(), r.liveBaseline(), r.publishedFingerprint(), lease.runKey(),
                lease.runKey(), lease.owner(), lease.epoch()) == 1;
    }

    @Override
    public List<GroupMember> groupMembers(String group) throws SQLException {
        return sql.list("SELECT " + GROUP_MEMBER_COLUMNS + " FROM " + groupMember + " g JOIN " + campaign
                + " c ON c.run_key = g.run_key WHERE g.group_name = ? ORDER BY g.live_table, g.run_key", rs -> new GroupMember(
                rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                CampaignPhase.valueOf(rs.getString(6)), rs.getTimestamp(12) == null ? null : new GroupMember.Readiness(
                rs.getString(7), rs.getString(8), rs.getLong(9), rs.getString(10), rs.getString(11))), group);
    }

    @Override
    public Optional<String> groupOf(String runKey) throws SQLException {
        return sql.one("SELECT group_name FROM " + groupMember + " WHERE run_key = ?", rs -> rs.getString(1), runKey);
    }

    /**
     * Another member's receipt in the group's swap: its campaign row locked and still Publishing, so its own driver
     * cannot move it meanwhile; the receipt records that row's lease epoch and its approval, as its own would.
     */
    @Override
    public PublicationReceipt insertMemberPublication(String runKey, ArtifactNames names, String liveTable, long rows,
                                                      TableFingerprint published) throws SQLException {
        if (sql.one("SELECT 1 FROM " + campaign + " WHERE run_key = ? AND phase = 'Publishing' FOR UPDATE", rs -> 1, runKey).isEmpty()) {
            throw new IllegalStateException("group member " + liveTable + " (run key " + runKey + ") is no longer"
                    + " Publishing: the group cannot swap as one; nothing was changed");
        }
        return sql.one("INSERT INTO " + publicationReceipt + " (run_key, receipt_id, target_schema, live_table, backup_table,"
                        + " shadow_table, rows_published, lease_epoch, published_fingerprint, approved_by, approved_at)"
                        + " SELECT ?, ?, ?, ?, ?, ?, ?, c.lease_epoch, ?, c.approved_by, c.approved_at FROM " + campaign + " c"
                        + " WHERE c.run_key = ?"
                        + " RETURNING " + PostgresLedgerRows.PUBLICATION_COLUMNS, PostgresLedgerRows.ROWS::publication,
                runKey, UUID.randomUUID().toString(), names.schema(), liveTable, names.backupTable(), names.shadowTable(),
                rows, published.encoded(), runKey).orElseThrow();
    }

    @Override
    public RollbackReceipt insertMemberRollback(String runKey, String reason, String acceptedWrites) throws SQLException {
        sql.one("SELECT 1 FROM " + campaign + " WHERE run_key = ? FOR UPDATE", rs -> 1, runKey).orElseThrow(
                () -> new IllegalStateException("group member run key " + runKey + " is not in the ledger; nothing was changed"));
        return sql.one("INSERT INTO " + rollbackReceipt + " (run_key, receipt_id, reason, lease_epoch, accepted_writes)"
                        + " SELECT ?, ?, ?, c.lease_epoch, ? FROM " + campaign + " c WHERE c.run_key = ?"
                        + " RETURNING " + PostgresLedgerRows.ROLLBACK_COLUMNS, PostgresLedgerRows.ROWS::rollback,
                runKey, UUID.randomUUID().toString(), reason, acceptedWrites, runKey).orElseThrow();
    }
}

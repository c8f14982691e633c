package io.dpone.backfill.target.postgres.ledger;

import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.target.TableFingerprint;
import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;

/**
 * The ledger rows a swap transaction reads and writes itself (campaign lease fence, publication and rollback
 * receipts), so that they commit or roll back together with the renames. Runs on the caller's transaction.
 */
public final class PostgresSwapLedger {
    private final Connection connection;
    private final String stateSchema;

    public PostgresSwapLedger(Connection connection, String stateSchema) {
        this.connection = connection;
        this.stateSchema = stateSchema;
        PostgresIdentifiers.quote(stateSchema); // refuse an unsafe state schema at construction, not mid-swap
    }

    public boolean ledgerPresent() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_catalog.to_regclass(?) IS NOT NULL")) {
            ps.setString(1, table("publication_receipt"));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /**
     * Proves the caller still holds the campaign lease, by the database's clock, inside the swap's transaction:
     * a driver deposed by a newer epoch, or whose lease ran out, must not publish or roll back.
     */
    public void fence(CampaignLease lease) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("UPDATE " + table("campaign")
                + " SET updated_at = pg_catalog.now() WHERE run_key = ? AND lease_owner = ? AND lease_epoch = ?"
                + " AND lease_expires >= pg_catalog.now()")) {
            ps.setString(1, lease.runKey());
            ps.setString(2, lease.owner());
            ps.setLong(3, lease.epoch());
            if (ps.executeUpdate() != 1) {
                throw new LeaseLostException("campaign lease lost for run key " + lease.runKey() + " (owner "
                        + lease.owner() + ", epoch " + lease.epoch() + "): another driver took over or the lease"
                        + " expired; nothing was changed");
            }
        }
    }

    public Optional<PublicationReceipt> publication(String runKey) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT receipt_id, target_schema, live_table,"
                + " backup_table, shadow_table, rows_published, published_at FROM " + table("publication_receipt")
                + " WHERE run_key = ?")) {
            ps.setString(1, runKey);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new PublicationReceipt(runKey, rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getString(4), rs.getString(5), rs.getLong(6), rs.getObject(7, OffsetDateTime.class).toInstant()));
            }
        }
    }

    public PublicationReceipt insertPublication(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                                         TableFingerprint published) throws SQLException {
        String receiptId = UUID.randomUUID().toString();
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO " + table("publication_receipt")
                + " (run_key, receipt_id, target_schema, live_table, backup_table, shadow_table, rows_published,"
                + " lease_epoch, published_fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING published_at")) {
            ps.setString(1, lease.runKey());
            ps.setString(2, receiptId);
            ps.setString(3, names.schema());
            ps.setString(4, liveTable);
            ps.setString(5, names.backupTable());
            ps.setString(6, names.shadowTable());
            ps.setLong(7, rows);
            ps.setLong(8, lease.epoch());
            ps.setString(9, published.encoded());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new PublicationReceipt(lease.runKey(), receiptId, names.schema(), liveTable,
                        names.backupTable(), names.shadowTable(), rows, rs.getObject(1, OffsetDateTime.class).toInstant());
            }
        }
    }

    /** The published table's content at publication, or null for a receipt written without one. */
    public TableFingerprint publishedFingerprint(String runKey) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT published_fingerprint FROM "
                + table("publication_receipt") + " WHERE run_key = ?")) {
            ps.setString(1, runKey);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? TableFingerprint.decode(rs.getString(1)) : null;
            }
        }
    }

    public Optional<RollbackReceipt> rollback(String runKey) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT receipt_id, reason, rolled_back_at, accepted_writes FROM "
                + table("rollback_receipt") + " WHERE run_key = ?")) {
            ps.setString(1, runKey);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new RollbackReceipt(runKey, rs.getString(1), rs.getString(2),
                        rs.getObject(3, OffsetDateTime.class).toInstant(), rs.getString(4)));
            }
        }
    }

    /** {@code acceptedWrites}: null, or the writes after publication that the operator accepted to move away. */
    public RollbackReceipt insertRollback(CampaignLease lease, String reason, String acceptedWrites) throws SQLException {
        String receiptId = UUID.randomUUID().toString();
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO " + table("rollback_receipt")
                + " (run_key, receipt_id, reason, lease_epoch, accepted_writes) VALUES (?, ?, ?, ?, ?) RETURNING rolled_back_at")) {
            ps.setString(1, lease.runKey());
            ps.setString(2, receiptId);
            ps.setString(3, reason);
            ps.setLong(4, lease.epoch());
            ps.setString(5, acceptedWrites);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new RollbackReceipt(lease.runKey(), receiptId, reason, rs.getObject(1, OffsetDateTime.class).toInstant(),
                        acceptedWrites);
            }
        }
    }

    private String table(String name) {
        return PostgresLedgerSchema.table(stateSchema, name);
    }
}

package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.campaign.PublicationGroup;
import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;

import java.util.List;
import java.util.Set;

/**
 * The target-side publication port (one adapter per engine): shadow preparation, exact validation, deferred
 * indexes, the atomic swap and its rollback. Every method is idempotent and safe to repeat after a crash.
 */
public interface ShadowPublisher extends TargetCatalog {
    /** The table's content fingerprint (row count and an order-independent hash of every row). */
    TableFingerprint fingerprint(String schema, String table);

    /**
     * The fingerprint of a shadow whose every column was loaded and whose rows are exactly those the receipts
     * digested ({@code receipts}, their sum), without reading the table; empty when this target cannot derive it
     * for rows moved as {@code encoding}, because it could not digest the table later on the same terms (ADR
     * 0022). A rollback compares such a fingerprint with a digest of the published table's rows.
     */
    default java.util.Optional<TableFingerprint> fingerprintOfLoadedRows(RowEncoding encoding, ChunkDigest receipts) {
        return java.util.Optional.empty();
    }

    /**
     * Creates the shadow from the live table's catalog (columns, types, defaults, NOT NULL; no unique indexes or
     * constraints) under an application lock and stamps it with the run key; or accepts an existing shadow that
     * carries this run key. A shadow stamped by another run key, or not stamped, fails closed untouched.
     */
    void prepareShadow(String runKey, ArtifactNames names, String liveTable);

    /** Exact counts on a loaded table (the shadow, or the live table in direct mode). */
    ValidationResult validate(String schema, String table, List<String> uniqueKey, long expectedRows);

    /** Recreates the live table's indexes and constraints on the shadow under temporary names; idempotent. */
    default void buildDeferredIndexes(String runKey, ArtifactNames names, String liveTable) {
        buildDeferredIndexes(runKey, names, liveTable, Set.of());
    }

    /**
     * As above; foreign keys referencing a table of {@code validatedAtSwap} (the other members of the campaign's
     * publication group) are created unvalidated and validated by the group's swap ({@link DeferredIndexStep}).
     */
    void buildDeferredIndexes(String runKey, ArtifactNames names, String liveTable, Set<String> validatedAtSwap);

    /**
     * One transaction under an application lock, fenced by the campaign lease: writes to the live table are
     * blocked, its shape and content are compared with {@code baseline} (a difference throws
     * {@link LiveTargetChangedException} before any change), then grants, ownership and identity positions onto
     * the shadow, live to backup, shadow to live, index and constraint names carried over, publication receipt
     * with the {@code published} fingerprint. A replay with the receipt present is a no-op returning it; a
     * conflicting identity fails closed with {@link ArtifactOwnershipException}.
     */
    PublicationReceipt publish(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                               LiveTargetBaseline baseline, TableFingerprint published);

    /**
     * The swap of every member of {@code group} in one transaction ({@link SwapOrder#publishGroup}), once each has
     * marked itself ready in the ledger; returns this campaign's receipt. {@link GroupHeldException} when another
     * member holds the group; this member's own refusals as in {@link #publish}.
     */
    PublicationReceipt publishGroup(CampaignLease lease, PublicationGroup group);

    /**
     * Operator-authorised swap back (backup to live, published table kept as the shadow) with its own receipt.
     * When the published table's content no longer matches the publication receipt's fingerprint (it was written
     * after publication), the rollback throws {@link PublishedTableWrittenException} unchanged unless
     * {@code acceptWrites}; an accepted difference is recorded in the rollback receipt. A member of a publication
     * group rolls back with every other member, in one transaction.
     */
    RollbackReceipt rollback(CampaignLease lease, ArtifactNames names, String liveTable, String reason, boolean acceptWrites);
}

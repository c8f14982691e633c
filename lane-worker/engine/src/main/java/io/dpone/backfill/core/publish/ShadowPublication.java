package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.campaign.PublicationGroup;
import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.GroupMember;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The one {@link ShadowPublisher}: every target supplies its parts (catalog reads, fingerprints, validation, shadow
 * DDL, the swap's transaction and steps) and this class puts them together, so the publication and rollback order
 * ({@link SwapOrder}) and the fault point inside the swap are the same on every target.
 */
public final class ShadowPublication implements ShadowPublisher {
    private final TargetCatalog catalog;
    private final TableFingerprinter fingerprints;
    private final TableValidator validator;
    private final ShadowStep creation;
    private final DeferredIndexStep deferredIndexes;
    private final SwapTransactions swaps;
    private final FaultPoints faults;

    /**
     * @param creation        creates and stamps the shadow, or accepts this run's (see {@link #prepareShadow})
     * @param deferredIndexes see {@link #buildDeferredIndexes}
     * @param faults          {@link io.dpone.backfill.core.fault.FaultPoint#IN_PUBLISH} fires inside the swap
     */
    public ShadowPublication(TargetCatalog catalog, TableFingerprinter fingerprints, TableValidator validator,
                             ShadowStep creation, DeferredIndexStep deferredIndexes, SwapTransactions swaps,
                             FaultPoints faults) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.fingerprints = Objects.requireNonNull(fingerprints, "fingerprints");
        this.validator = Objects.requireNonNull(validator, "validator");
        this.creation = Objects.requireNonNull(creation, "creation");
        this.deferredIndexes = Objects.requireNonNull(deferredIndexes, "deferredIndexes");
        this.swaps = Objects.requireNonNull(swaps, "swaps");
        this.faults = Objects.requireNonNull(faults, "faults");
    }

    /** A target's lock timeout for its shadow DDL and swaps: present and not negative, or refused here. */
    public static Duration requireLockTimeout(Duration lockTimeout) {
        Objects.requireNonNull(lockTimeout, "lockTimeout");
        if (lockTimeout.isNegative()) {
            throw new IllegalArgumentException("lockTimeout must not be negative");
        }
        return lockTimeout;
    }

    @Override
    public TableShape shape(String schema, String table) {
        return catalog.shape(schema, table);
    }

    @Override
    public TableShape liveShape(String schema, String table) {
        return catalog.liveShape(schema, table);
    }

    @Override
    public TableFingerprint fingerprint(String schema, String table) {
        return fingerprints.fingerprint(schema, table);
    }

    @Override
    public Optional<TableFingerprint> fingerprintOfLoadedRows(RowEncoding encoding, ChunkDigest receipts) {
        return fingerprints.ofLoadedRows(encoding, receipts);
    }

    @Override
    public void prepareShadow(String runKey, ArtifactNames names, String liveTable) {
        creation.apply(runKey, names, liveTable);
    }

    @Override
    public ValidationResult validate(String schema, String table, List<String> uniqueKey, long expectedRows) {
        return validator.validate(schema, table, uniqueKey, expectedRows);
    }

    @Override
    public void buildDeferredIndexes(String runKey, ArtifactNames names, String liveTable, Set<String> validatedAtSwap) {
        deferredIndexes.apply(runKey, names, liveTable, validatedAtSwap);
    }

    @Override
    public PublicationReceipt publish(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                                      LiveTargetBaseline baseline, TableFingerprint published) {
        return swaps.run("publish " + names.shadowTable() + " as " + liveTable, names, liveTable,
                (steps, ledger) -> SwapOrder.publish(steps, ledger, lease, names, liveTable, rows, baseline, published, faults));
    }

    @Override
    public PublicationReceipt publishGroup(CampaignLease lease, PublicationGroup group) {
        return swaps.runAll("publish group " + group.describe(), group.schema(), group.members(),
                (steps, ledger) -> SwapOrder.publishGroup(steps, ledger, lease, group, faults));
    }

    @Override
    public RollbackReceipt rollback(CampaignLease lease, ArtifactNames names, String liveTable, String reason,
                                    boolean acceptWrites) {
        // A group member's rollback locks every member's table: which they are, the ledger says.
        List<String> tables = swaps.run("read the publication group of " + liveTable, names, liveTable, (steps, ledger) -> {
            Optional<String> group = ledger.groupOf(lease.runKey());
            return group.isEmpty() ? List.of(liveTable)
                    : ledger.groupMembers(group.get()).stream().map(GroupMember::liveTable).sorted().toList();
        });
        return swaps.runAll("roll back " + liveTable + " to " + names.backupTable()
                        + (tables.size() > 1 ? " with its publication group " + tables : ""), names.schema(), tables,
                (steps, ledger) -> SwapOrder.rollback(steps, ledger, lease, names, liveTable, reason, acceptWrites));
    }
}

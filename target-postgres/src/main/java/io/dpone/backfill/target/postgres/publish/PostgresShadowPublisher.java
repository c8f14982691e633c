package io.dpone.backfill.target.postgres.publish;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;
import io.dpone.backfill.core.target.LiveTargetBaseline;
import io.dpone.backfill.core.target.ShadowPublisher;
import io.dpone.backfill.core.target.SwapOrder;
import io.dpone.backfill.core.target.TableFingerprint;
import io.dpone.backfill.core.target.TableShape;
import io.dpone.backfill.core.target.ValidationResult;
import io.dpone.backfill.postgres.PostgresSqlException;
import io.dpone.backfill.target.postgres.ledger.PostgresLedgerStatements;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ShadowPublisher} for a PostgreSQL target. The connection must be in auto-commit mode: each operation
 * runs its own transactions. Shadow DDL, publication and rollback of one live table are serialised across
 * processes by a transaction-scoped advisory lock keyed on the target table. Ownership lives in table comments
 * ({@code dpone-backfill run_key=...}); the ledger rows a swap needs (lease fence, receipts) are written in the
 * swap's own transaction in {@code stateSchema}.
 *
 * <p>Rollback ({@link #rollback}) is an operator-authorised swap back, fenced by the campaign lease like
 * publication: it requires this run key's publication receipt and no rollback receipt (a replay returns the
 * existing rollback receipt), the live table stamped as published by this run key and the backup stamped as its
 * backup; it renames the published table back to the shadow name and the backup to the live name, carries index,
 * constraint and identity-sequence names back, and writes the rollback receipt, all in one transaction.
 * Anything else fails closed with {@link io.dpone.backfill.core.target.ArtifactOwnershipException} and no change.
 *
 * <p>SQL failures surface as {@link PostgresSqlException} after the transaction rolled back; a lock timeout
 * there is transient.
 */
public final class PostgresShadowPublisher implements ShadowPublisher {
    private final Connection target;
    private final PostgresTargetCatalog catalog;
    private final PostgresShadowCreator creator;
    private final PostgresShadowIndexBuilder indexes;
    private final String stateSchema;
    private final Duration lockTimeout;
    private final FaultPoints faults;

    public PostgresShadowPublisher(Connection target, String stateSchema, Duration lockTimeout) {
        this(target, stateSchema, lockTimeout, FaultPoints.NONE);
    }

    /** {@code faults}: {@link io.dpone.backfill.core.fault.FaultPoint#IN_PUBLISH} fires inside the swap transaction. */
    public PostgresShadowPublisher(Connection target, String stateSchema, Duration lockTimeout, FaultPoints faults) {
        this.target = Objects.requireNonNull(target, "target");
        Objects.requireNonNull(lockTimeout, "lockTimeout");
        if (lockTimeout.isNegative()) {
            throw new IllegalArgumentException("lockTimeout must not be negative");
        }
        this.catalog = new PostgresTargetCatalog(target);
        PostgresLedgerStatements ledger = new PostgresLedgerStatements(target, stateSchema);
        this.creator = new PostgresShadowCreator(target, ledger);
        this.indexes = new PostgresShadowIndexBuilder(target, ledger);
        this.stateSchema = stateSchema;
        this.lockTimeout = lockTimeout;
        this.faults = faults;
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
        return PostgresShadowTransaction.run(target, "fingerprint " + schema + "." + table,
                c -> PostgresTableFingerprint.of(c, schema, table));
    }

    /**
     * Binary pass-through (ADR 0017) lands the source's tuples byte for byte in columns of the identical types, so
     * the receipts' sum is the shadow's digest; a rollback digests the table again on the binary wire. Rows that
     * travelled as text may have been converted on the way in, and are hashed by {@link #fingerprint} instead.
     */
    @Override
    public Optional<TableFingerprint> fingerprintOfLoadedRows(RowEncoding encoding, ChunkDigest receipts) {
        return encoding == RowEncoding.POSTGRES_COPY_BINARY ? Optional.of(TableFingerprint.ofRowDigest(receipts))
                : Optional.empty();
    }

    /**
     * Creates the shadow with {@code CREATE TABLE ... (LIKE live INCLUDING DEFAULTS, GENERATED, IDENTITY, STORAGE,
     * COMMENTS)}: columns, types, defaults and NOT NULL, but no index or constraint, with autovacuum off until
     * publication gives it the live table's storage parameters (ADR 0025), and stamps it. An existing
     * shadow must carry exactly this run key's stamp. After publication (receipt present) this does nothing.
     */
    @Override
    public void prepareShadow(String runKey, ArtifactNames names, String liveTable) {
        creator.prepare(runKey, names, liveTable);
    }

    @Override
    public ValidationResult validate(String schema, String table, List<String> uniqueKey, long expectedRows) {
        return new PostgresShadowValidator(target).validate(schema, table, uniqueKey, expectedRows);
    }

    /**
     * Recreates every index, primary key, unique, exclusion, check and foreign-key constraint of the live table on
     * the shadow under {@link CarriedObjectNames#onShadow temporary names}, one transaction each; what the shadow
     * already has is skipped. Foreign keys are added NOT VALID, then validated. Last, the shadow is analyzed: the
     * published table has the planner's statistics from its first query (ADR 0025).
     */
    @Override
    public void buildDeferredIndexes(String runKey, ArtifactNames names, String liveTable) {
        indexes.build(runKey, names, liveTable);
    }

    @Override
    public PublicationReceipt publish(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                                      LiveTargetBaseline baseline, TableFingerprint published) {
        return PostgresShadowTransaction.run(target, "publish " + names.shadowTable() + " as " + liveTable,
                c -> SwapOrder.publish(swapSteps(c, names, liveTable), lease, names, liveTable, rows, baseline, published, faults));
    }

    @Override
    public RollbackReceipt rollback(CampaignLease lease, ArtifactNames names, String liveTable, String reason,
                                    boolean acceptWrites) {
        return PostgresShadowTransaction.run(target, "roll back " + liveTable + " to " + names.backupTable(),
                c -> SwapOrder.rollback(swapSteps(c, names, liveTable), lease, names, liveTable, reason, acceptWrites));
    }

    /** The swap's transaction: lock timeout, a pinned search path and the target lock, then {@link SwapOrder}'s steps. */
    private PostgresSwapSteps swapSteps(Connection c, ArtifactNames names, String liveTable) throws SQLException {
        PostgresShadowTransaction.lockTimeout(c, lockTimeout);
        PostgresShadowTransaction.pinSearchPath(c);
        PostgresShadowTransaction.lockTarget(c, names.schema(), liveTable);
        return new PostgresSwapSteps(c, names.schema(), stateSchema);
    }
}

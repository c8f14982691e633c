package io.dpone.backfill.target.mssql.publish;

import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.target.LiveTargetBaseline;
import io.dpone.backfill.core.target.ShadowPublisher;
import io.dpone.backfill.core.target.SwapOrder;
import io.dpone.backfill.core.target.TableFingerprint;
import io.dpone.backfill.core.target.TableShape;
import io.dpone.backfill.core.target.ValidationResult;
import io.dpone.backfill.target.mssql.MssqlFailures;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The {@link ShadowPublisher} for a SQL Server target (2019+, Azure SQL). The connection must be in auto-commit
 * mode: each operation runs its own explicit transaction under a transaction-owned {@code sp_getapplock} on the
 * target table, with {@code SET LOCK_TIMEOUT} and {@code XACT_ABORT ON}. Ownership lives in an extended property
 * ({@link MssqlShadowStamp}); the ledger rows a swap needs (lease fence, receipts) are written in the swap's own
 * transaction in {@code stateSchema}. SQL failures surface as {@link io.dpone.backfill.core.engine.DatabaseFailureException}
 * classified by {@link MssqlFailures} (a lock timeout, 1222, is transient) after the transaction rolled back.
 */
public final class MssqlShadowPublisher implements ShadowPublisher {
    private final Connection target;
    private final MssqlTargetCatalog catalog;
    private final MssqlShadowCreator creator;
    private final MssqlShadowIndexBuilder indexes;
    private final String stateSchema;
    private final Duration lockTimeout;
    private final FaultPoints faults;

    public MssqlShadowPublisher(Connection target, String stateSchema, Duration lockTimeout) {
        this(target, stateSchema, lockTimeout, FaultPoints.NONE);
    }

    /** {@code faults}: {@link io.dpone.backfill.core.fault.FaultPoint#IN_PUBLISH} fires inside the swap transaction. */
    public MssqlShadowPublisher(Connection target, String stateSchema, Duration lockTimeout, FaultPoints faults) {
        this.target = Objects.requireNonNull(target, "target");
        Objects.requireNonNull(stateSchema, "stateSchema");
        Objects.requireNonNull(lockTimeout, "lockTimeout");
        if (lockTimeout.isNegative()) {
            throw new IllegalArgumentException("lockTimeout must not be negative");
        }
        this.catalog = new MssqlTargetCatalog(target);
        this.creator = new MssqlShadowCreator(target, stateSchema, lockTimeout);
        this.indexes = new MssqlShadowIndexBuilder(target, stateSchema, lockTimeout);
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
        try {
            return MssqlTableFingerprint.of(target, schema, table);
        } catch (SQLException e) {
            throw MssqlFailures.of("fingerprint " + schema + "." + table + ": " + e.getMessage(), e);
        }
    }

    /**
     * Creates the shadow from the live table's catalog (see {@link MssqlShadowDdl}) as a heap, or with the live
     * table's clustered columnstore, and stamps it; an existing shadow must carry exactly this run key's stamp.
     * After publication (receipt present) this does nothing.
     */
    @Override
    public void prepareShadow(String runKey, ArtifactNames names, String liveTable) {
        creator.prepare(runKey, names, liveTable);
    }

    @Override
    public ValidationResult validate(String schema, String table, List<String> uniqueKey, long expectedRows) {
        return new MssqlShadowValidator(target).validate(schema, table, uniqueKey, expectedRows);
    }

    @Override
    public void buildDeferredIndexes(String runKey, ArtifactNames names, String liveTable) {
        indexes.build(runKey, names, liveTable);
    }

    @Override
    public PublicationReceipt publish(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                                      LiveTargetBaseline baseline, TableFingerprint published) {
        // MssqlShadowTransaction opens the swap's transaction: SET LOCK_TIMEOUT and the transaction-owned target lock.
        return MssqlShadowTransaction.run(target, "publish " + names.shadowTable() + " as " + liveTable, names.schema(),
                liveTable, lockTimeout, c -> SwapOrder.publish(new MssqlSwapSteps(c, names.schema(), stateSchema), lease, names,
                        liveTable, rows, baseline, published, faults));
    }

    @Override
    public RollbackReceipt rollback(CampaignLease lease, ArtifactNames names, String liveTable, String reason,
                                    boolean acceptWrites) {
        return MssqlShadowTransaction.run(target, "roll back " + liveTable + " to " + names.backupTable(), names.schema(),
                liveTable, lockTimeout, c -> SwapOrder.rollback(new MssqlSwapSteps(c, names.schema(), stateSchema), lease,
                        names, liveTable, reason, acceptWrites));
    }
}

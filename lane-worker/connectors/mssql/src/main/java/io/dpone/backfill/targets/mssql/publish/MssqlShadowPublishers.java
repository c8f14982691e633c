package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.publish.ShadowPublication;
import io.dpone.backfill.core.publish.ShadowPublisher;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.targets.mssql.MssqlFailures;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;

/**
 * The {@link ShadowPublisher} for a SQL Server target (2019+, Azure SQL), from its parts. The connection must be in auto-commit
 * mode: each operation runs its own explicit transaction under a transaction-owned {@code sp_getapplock} on the
 * target table, with {@code SET LOCK_TIMEOUT} and {@code XACT_ABORT ON}. Ownership lives in an extended property
 * ({@link MssqlShadowStamp}); the ledger rows a swap needs (lease fence, receipts) are written in the swap's own
 * transaction in {@code stateSchema}. SQL failures surface as {@link io.dpone.backfill.core.engine.DatabaseFailureException}
 * classified by {@link MssqlFailures} (a lock timeout, 1222, is transient) after the transaction rolled back.
 */
public final class MssqlShadowPublishers {
    private MssqlShadowPublishers() {
    }

    /**
     * The shadow is created from the live table's catalog (see {@link MssqlShadowDdl}) as a heap, or with the live
     * table's clustered columnstore, and stamped; an existing shadow must carry exactly this run key's stamp. After
     * publication (receipt present) preparing it does nothing.
     *
     * @param faults {@link io.dpone.backfill.core.fault.FaultPoint#IN_PUBLISH} fires inside the swap transaction
     */
    public static ShadowPublisher of(Connection target, String stateSchema, Duration lockTimeout, FaultPoints faults) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(stateSchema, "stateSchema");
        ShadowPublication.requireLockTimeout(lockTimeout);
        MssqlShadowValidator validator = new MssqlShadowValidator(target);
        return new ShadowPublication(new MssqlTargetCatalog(target), (schema, table) -> fingerprint(target, schema, table),
                validator::validate, new MssqlShadowCreator(target, stateSchema, lockTimeout)::prepare,
                deferredIndexes(new MssqlShadowIndexBuilder(target, stateSchema, lockTimeout)),
                new MssqlSwapTransactions(target, stateSchema, lockTimeout), faults);
    }

    /**
     * A group member's keys to another member are not created on the shadow (the other member's shadow may still be
     * loading): the group's swap adds them, checked, between the loaded shadows ({@link MssqlSwapSteps}).
     */
    private static io.dpone.backfill.core.publish.DeferredIndexStep deferredIndexes(MssqlShadowIndexBuilder builder) {
        return builder::build;
    }

    private static TableFingerprint fingerprint(Connection target, String schema, String table) {
        try {
            return MssqlTableFingerprint.of(target, schema, table);
        } catch (SQLException e) {
            throw MssqlFailures.of("fingerprint " + schema + "." + table + ": " + e.getMessage(), e);
        }
    }
}

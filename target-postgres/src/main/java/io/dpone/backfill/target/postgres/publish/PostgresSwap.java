package io.dpone.backfill.target.postgres.publish;

import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.target.LiveTargetBaseline;
import io.dpone.backfill.core.target.SwapOrder;
import io.dpone.backfill.core.target.TableFingerprint;

import java.sql.Connection;
import java.time.Duration;

/**
 * Publication and its rollback on PostgreSQL, each in one transaction: lock timeout, a pinned search path and the
 * target lock first, then {@link SwapOrder}'s steps ({@link PostgresSwapSteps}). The backup's owner and grants are
 * never changed, so a rollback gives the live table back as it was.
 */
public final class PostgresSwap {
    private final Connection connection;
    private final String stateSchema;
    private final Duration lockTimeout;
    private final FaultPoints faults;

    PostgresSwap(Connection connection, String stateSchema, Duration lockTimeout, FaultPoints faults) {
        this.connection = connection;
        this.stateSchema = stateSchema;
        this.lockTimeout = lockTimeout;
        this.faults = faults;
    }

    PublicationReceipt publish(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                               LiveTargetBaseline baseline, TableFingerprint published) {
        return PostgresShadowTransaction.run(connection, "publish " + names.shadowTable() + " as " + liveTable, c -> {
            PostgresSwapSteps steps = open(c, names, liveTable);
            return SwapOrder.publish(steps, lease, names, liveTable, rows, baseline, published, faults);
        });
    }

    RollbackReceipt rollback(CampaignLease lease, ArtifactNames names, String liveTable, String reason, boolean acceptWrites) {
        return PostgresShadowTransaction.run(connection, "roll back " + liveTable + " to " + names.backupTable(), c -> {
            PostgresSwapSteps steps = open(c, names, liveTable);
            return SwapOrder.rollback(steps, lease, names, liveTable, reason, acceptWrites);
        });
    }

    private PostgresSwapSteps open(Connection c, ArtifactNames names, String liveTable) throws java.sql.SQLException {
        PostgresShadowTransaction.lockTimeout(c, lockTimeout);
        PostgresShadowTransaction.pinSearchPath(c);
        PostgresShadowTransaction.lockTarget(c, names.schema(), liveTable);
        return new PostgresSwapSteps(c, names.schema(), stateSchema);
    }
}

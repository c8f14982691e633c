package io.dpone.backfill.target.mssql.publish;

import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.target.LiveTargetBaseline;
import io.dpone.backfill.core.target.SwapOrder;
import io.dpone.backfill.core.target.TableFingerprint;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Publication and its rollback on SQL Server, each in one transaction that {@link MssqlShadowTransaction} opens with
 * its lock timeout and the transaction-owned target lock, then {@link SwapOrder}'s steps ({@link MssqlSwapSteps}).
 * The backup's owner and permissions are never changed, so a rollback gives the live table back as it was.
 */
final class MssqlSwap {
    private final Connection connection;
    private final String stateSchema;
    private final Duration lockTimeout;
    private final FaultPoints faults;

    MssqlSwap(Connection connection, String stateSchema, Duration lockTimeout, FaultPoints faults) {
        this.connection = connection;
        this.stateSchema = stateSchema;
        this.lockTimeout = lockTimeout;
        this.faults = faults;
    }

    PublicationReceipt publish(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                               LiveTargetBaseline baseline, TableFingerprint published) {
        return MssqlShadowTransaction.run(connection, "publish " + names.shadowTable() + " as " + liveTable,
                names.schema(), liveTable, lockTimeout, c -> SwapOrder.publish(new MssqlSwapSteps(c, names.schema(),
                        stateSchema), lease, names, liveTable, rows, baseline, published, faults));
    }

    RollbackReceipt rollback(CampaignLease lease, ArtifactNames names, String liveTable, String reason, boolean acceptWrites) {
        return MssqlShadowTransaction.run(connection, "roll back " + liveTable + " to " + names.backupTable(),
                names.schema(), liveTable, lockTimeout, c -> SwapOrder.rollback(new MssqlSwapSteps(c, names.schema(),
                        stateSchema), lease, names, liveTable, reason, acceptWrites));
    }

    /**
     * Blocks writers of a table for the rest of the transaction: {@code TABLOCK, HOLDLOCK} takes a shared table lock
     * held until commit (writers wait, within LOCK_TIMEOUT; readers go on), so every write committed before it is
     * visible to the comparison after it and none can commit between the check and the rename. (Babelfish accepts
     * and ignores table hints; there the application lock and the rename's own locks are all that hold.)
     */
    static void blockWriters(Connection c, String schema, String table) throws SQLException {
        MssqlShadowTransaction.execute(c, "SELECT COUNT_BIG(*) AS held FROM " + MssqlObjectNames.twoPart(schema, table)
                + " WITH (TABLOCK, HOLDLOCK)");
    }
}

package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import io.dpone.backfill.core.ledger.ChunkClaim;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The ledger writes of one chunk's commit, on the lane's sink connection inside the chunk's transaction: the
 * receipt first, its row count, the fenced mark and the lane's progress counters. Statements are
 * {@link MssqlLedgerText}'.
 */
public final class MssqlChunkReceipts {
    /** Duplicate key in a unique index / primary key: the receipt exists, an earlier attempt committed the chunk. */
    private static final int DUPLICATE_KEY = 2627;
    private static final int DUPLICATE_INDEX_KEY = 2601;

    private final MssqlJdbc sql;
    private final MssqlLedgerText statements;

    public MssqlChunkReceipts(Connection sink, String stateSchema) {
        this.sql = new MssqlJdbc(sink);
        this.statements = new MssqlLedgerText(stateSchema);
    }

    /** Session settings of the sink connection: every wait bounded by {@code lockTimeout}; errors abort the transaction. */
    public void configureSession(Duration lockTimeout) throws SQLException {
        sql.execute(MssqlLedgerText.sessionSettings(lockTimeout.toMillis()));
    }

    /** False when the chunk's receipt exists (committed earlier); blocks, bounded, behind an uncommitted one. */
    public boolean insert(ChunkClaim claim) throws SQLException {
        try {
            return sql.update(statements.insertChunkReceipt(), claim.runKey(), claim.chunkId(), claim.epoch(), claim.owner()) == 1;
        } catch (SQLException e) {
            if (e.getErrorCode() == DUPLICATE_KEY || e.getErrorCode() == DUPLICATE_INDEX_KEY) {
                return false;
            }
            throw e;
        }
    }

    /** {@code contentDigest}: the rows' content digest (ADR 0018), or null when the lane computed none. */
    public void recordRows(ChunkClaim claim, long rows, String contentDigest) throws SQLException {
        if (sql.update(statements.recordReceiptRows(), rows, contentDigest, claim.runKey(), claim.chunkId(), claim.epoch()) != 1) {
            throw new SQLException("chunk receipt vanished inside its own transaction");
        }
    }

    /** The fenced mark, and the lane's progress counters with it (ADR 0027). */
    public boolean markCommitted(ChunkClaim claim, long rowsExtracted, long rowsLoaded) throws SQLException {
        if (sql.update(statements.markChunkCommitted(), rowsExtracted, rowsLoaded, claim.runKey(), claim.chunkId(),
                claim.owner(), claim.epoch()) != 1) {
            return false;
        }
        MssqlCommittedCount.add(sql, statements, claim.runKey(), claim.chunkId());
        return true;
    }
}

package io.dpone.backfill.targets.ledger;

import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.plan.ChunkPlan;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The chunk rows' statements, each executed on the state connection: the plan's chunks, the run's progress
 * counters, claims fenced by owner and epoch, and the lane locks that let a dead lane's chunk be claimed before its
 * lease expires (ADR 0021). Meanings are {@link io.dpone.backfill.core.ledger.LedgerStore}'s.
 */
public interface ChunkStatements {

    /** Every chunk of the plan (pending) and the run's progress counters, in the caller's transaction. */
    void insertPlan(String runKey, ChunkPlan plan) throws SQLException;

    /** Each chunk's row estimate, in chunk-id order; in the caller's transaction, under a proved lease. */
    void recordEstimates(String runKey, List<Long> rowsPerChunk) throws SQLException;

    ChunkCounts counts(String runKey, int maxAttempts) throws SQLException;

    /** Takes this store's lane lock for {@code owner}; true when held now (taken once per store and owner). */
    boolean holdLaneLock(String runKey, String owner) throws SQLException;

    List<ChunkRecord> claimable(String runKey, int maxAttempts, boolean retryFailed, int limit) throws SQLException;

    Optional<ChunkClaim> claim(String runKey, ChunkRecord seen, String owner, long ttlMillis) throws SQLException;

    boolean renew(ChunkClaim claim, long ttlMillis, long rowsCopied) throws SQLException;

    /** {@code refused}: the target refused the rows themselves, so the chunk waits for a resume, never a retry. */
    boolean fail(ChunkClaim claim, String error, boolean refused) throws SQLException;

    /** The lowest-numbered chunk the target refused and that was not requeued since. */
    Optional<ChunkRecord> firstRefused(String runKey) throws SQLException;

    boolean abandon(ChunkClaim claim, String reason) throws SQLException;

    /** Committed from the chunk's existing receipt, with the run's progress counters, fenced by owner and epoch. */
    boolean commitFromReceipt(ChunkClaim claim) throws SQLException;

    /** Failed chunks back to pending with zero attempts; in the caller's transaction, under a proved lease. */
    int requeueFailed(String runKey) throws SQLException;

    List<ChunkRecord> page(String runKey, int offset, int limit) throws SQLException;
}

package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.digest.ChunkDigest;

/**
 * One chunk's target transaction. {@link ChunkProtocol} calls the steps in their one legal order; each step runs
 * inside the same open transaction, so the receipt, the rows and the ledger row commit together or not at all.
 */
public interface ChunkTransaction extends AutoCloseable {
    /** Inserts the chunk receipt; false when one exists already (an earlier attempt committed the chunk). */
    boolean insertReceipt() throws Exception;

    /** Loads every row of {@code rows} into the load table; returns the rows loaded as the target counted them. */
    long load(ChunkRows rows) throws Exception;

    /**
     * Sends the rows buffered so far to the server. Called only when a crash test armed the mid-copy point, from
     * inside {@link #load} between two rows.
     */
    void flush() throws Exception;

    /**
     * Records in the receipt the rows loaded and the content digest of the rows streamed (ADR 0018), or null when the
     * source computed none.
     */
    void recordLoaded(long rowsLoaded, ChunkDigest digest) throws Exception;

    /** Moves the chunk's ledger row to committed WHERE owner and epoch still match; false when the fence failed. */
    boolean markCommitted(long rowsExtracted, long rowsLoaded) throws Exception;

    void commit() throws Exception;

    /** Rolls back unless committed and hands the connection back as it was. Never throws. */
    @Override
    void close();
}

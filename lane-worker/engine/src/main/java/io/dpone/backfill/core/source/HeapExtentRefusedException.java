package io.dpone.backfill.core.source;

/**
 * The source table cannot be read in physical chunks (not a plain table, an inheritance or partition parent, a
 * server without TID range scans, or a cluster whose transaction ids have wrapped): the reason names which and why.
 */
public final class HeapExtentRefusedException extends RuntimeException {
    public HeapExtentRefusedException(String reason) {
        super(reason);
    }
}

package io.dpone.backfill.core.lane;

/** Tells the committer, between buffers, whether the chunk lease is still held. */
public interface LeaseWatch {
    boolean lost();

    /** Rows the copy has streamed so far; reported with the next lease renewal, for the ETA. */
    default void copied(long rows) {
    }

    /** Renewal stops once the copy is done: the final fenced update decides, and must not race a renewal. */
    void copyFinished();
}

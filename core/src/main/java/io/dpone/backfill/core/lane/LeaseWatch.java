package io.dpone.backfill.core.lane;

/** Tells the committer, between buffers, whether the chunk lease is still held. */
public interface LeaseWatch {
    boolean lost();

    /** Renewal stops once the copy is done: the final fenced update decides, and must not race a renewal. */
    void copyFinished();
}

package io.dpone.backfill.core.reconcile;

/**
 * What one chunk's reconciliation committed, in the same target transaction as its receipt.
 *
 * @param upserted rows written to the source's version (inserted or updated)
 * @param deleted  rows deleted because the source no longer has them
 * @param queued   keys left for a decision (written in the target by someone else)
 * @param keysCompared whether the chunk's keys differed and were compared one by one (to find deletes)
 */
public record ChunkReconciled(long upserted, long deleted, long queued, boolean keysCompared) {
    public static final ChunkReconciled NOTHING = new ChunkReconciled(0, 0, 0, false);

    public ChunkReconciled plus(ChunkReconciled other) {
        return new ChunkReconciled(upserted + other.upserted, deleted + other.deleted, queued + other.queued,
                keysCompared || other.keysCompared);
    }
}

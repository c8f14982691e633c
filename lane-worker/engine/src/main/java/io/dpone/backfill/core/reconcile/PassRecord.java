package io.dpone.backfill.core.reconcile;

import java.time.Instant;

/**
 * One reconciliation pass as the ledger holds it.
 *
 * @param pass       1, 2, ... per campaign
 * @param since      the anchor it read changes from: the handoff's, or the previous pass's
 * @param anchor     the snapshot it brought the table to (taken when the pass began; a resumed pass keeps it, so the
 *                   next pass repeats rather than misses what changed while it was interrupted)
 * @param finishedAt null while the pass is unfinished
 * @param totals     what its chunks committed
 */
public record PassRecord(int pass, String since, String anchor, Instant startedAt, Instant finishedAt,
                         ChunkReconciled totals, int chunksDone) {
    public boolean finished() {
        return finishedAt != null;
    }

    /** The newest finished pass of {@code passes} (oldest first): whose anchor an incremental sync starts from. */
    public static java.util.Optional<PassRecord> lastFinished(java.util.List<PassRecord> passes) {
        for (int i = passes.size() - 1; i >= 0; i--) {
            if (passes.get(i).finished()) {
                return java.util.Optional.of(passes.get(i));
            }
        }
        return java.util.Optional.empty();
    }
}

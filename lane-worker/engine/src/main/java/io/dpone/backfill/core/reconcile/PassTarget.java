package io.dpone.backfill.core.reconcile;

import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.ChunkRange;

/**
 * The target side of one pass: applies one range's changes to the published table in one transaction with the
 * range's receipt, fenced by the campaign lease, so each range is reconciled exactly once per pass.
 */
public interface PassTarget {
    /**
     * Writes {@code changed} (the source's version of rows written since the pass's {@code since}) by key, except where
     * someone else wrote the target row after publication (queued instead); then, when the range's keys still differ
     * from {@code sourceKeys}, finds the key buckets that differ and streams the source's keys of those from {@code keys} and
     * deletes the target rows the source no longer has (queuing the source's keys the target lost). {@code changed} is
     * read to its end before {@code keys} is opened.
     *
     * @throws io.dpone.backfill.core.engine.LeaseLostException when the lease's epoch is no longer the campaign's
     */
    ChunkReconciled apply(CampaignLease lease, int pass, int rangeId, ChunkRange range, ChunkRows changed,
                          KeySetDigest sourceKeys, KeyStream keys) throws Exception;

    /**
     * The source's keys of a range, read on demand: a range whose key digests agree reads nothing more; one whose
     * digests differ reads the source's per-bucket digests, then only the keys of the buckets that differ.
     */
    interface KeyStream {
        KeyBuckets buckets() throws Exception;

        ChunkRows open(java.util.Set<Integer> buckets) throws Exception;
    }
}

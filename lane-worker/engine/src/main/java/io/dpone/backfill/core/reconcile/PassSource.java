package io.dpone.backfill.core.reconcile;

import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.plan.ChunkRange;

import java.util.List;

/**
 * The source side of one pass, under one snapshot held for the whole pass (issue 38). A range of null is the whole
 * table (a physical plan's rows cannot be placed in a key range; its keys are compared table-wide). One stream at a
 * time: the source connection serves one read.
 */
public interface PassSource extends AutoCloseable {
    /** The anchor of this pass's snapshot, in the handoff's terms. */
    String anchor();

    /**
     * The load columns of the range's rows written at or after {@code since} (as the handoff defines it), plus the
     * rows of {@code acceptedKeys} whatever their age, in the load's column order.
     */
    ChunkRows changedRows(ChunkRange range, String since, List<String> acceptedKeys) throws Exception;

    /** The digest of the range's keys (the target key's source columns), canonical text as the target's. */
    KeySetDigest keyDigest(ChunkRange range) throws Exception;

    /** The same keys digested per bucket: read only for a range whose whole digests differ. */
    KeyBuckets keyBuckets(ChunkRange range) throws Exception;

    /** The range's keys that fall in {@code buckets}, one row each, in the key columns' order. */
    ChunkRows keys(ChunkRange range, java.util.Set<Integer> buckets) throws Exception;

    @Override
    void close() throws Exception;
}

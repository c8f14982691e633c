package io.dpone.backfill.core.reconcile;

import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.plan.ChunkRange;

import java.util.List;

/**
 * The source side of one pass, under one snapshot held for the whole pass (issue 38). Each read is one scan of the
 * whole table, whatever the number of ranges: a range's rows may lie anywhere in the heap (a uuid key), so reading
 * range by range would read the heap once per range (ADR 0054). Ranges are numbered as {@link ReconcilePass#ranges}
 * lists them; a physical plan has one, the whole table. One stream at a time: the connection serves one read.
 */
public interface PassSource extends AutoCloseable {
    /** The anchor of this pass's snapshot, in the handoff's terms. */
    String anchor();

    /**
     * The load columns of the rows written at or after {@code since} (as the handoff defines it), plus the rows of
     * {@code acceptedKeys} whatever their age, in the load's column order, as text rows.
     */
    ChunkRows changedRows(String since, List<String> acceptedKeys) throws Exception;

    /**
     * The digests of the keys (the target key's source columns, as canonical text) per range and bucket, one text row
     * each: range id, bucket, count, sum of the keys' hashes; an empty bucket has no row.
     */
    ChunkRows keyDigests(List<ChunkRange> ranges) throws Exception;

    /** The keys in {@code buckets}, one text row each: the range id, then the key columns. */
    ChunkRows keys(List<ChunkRange> ranges, RangeBuckets buckets) throws Exception;

    @Override
    void close() throws Exception;
}

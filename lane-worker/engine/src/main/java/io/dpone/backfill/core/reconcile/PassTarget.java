package io.dpone.backfill.core.reconcile;

import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.ChunkRange;

import java.util.List;

/**
 * The target side of one pass. First a survey, each step one read of the published table at most: the source's
 * changed rows and key digests are staged in the target session and compared with the published table's, then the
 * keys of the buckets that differ are staged; then each range is applied in one transaction with its receipt, fenced by the
 * campaign lease, so each range is reconciled exactly once per pass. Staged data lives as long as the session.
 */
public interface PassTarget extends AutoCloseable {
    /**
     * Stages the source's rows written since the pass's {@code since} (and accepted keys' rows), compares the source's
     * key digests per range and bucket ({@link PassSource#keyDigests}) with the published table's as they will be once
     * the staged rows are written, notes the rows someone else wrote after publication, and returns the buckets whose
     * keys differ. The target opens the source's reads when it has begun its own: opening blocks while the source
     * computes, and the two servers should work at once.
     */
    RangeBuckets survey(List<ChunkRange> ranges, SourceRead changed, SourceRead sourceDigests) throws Exception;

    /** Stages the source's keys of the differing buckets ({@link PassSource#keys}) and finds what each side lacks. */
    void stageKeys(List<ChunkRange> ranges, SourceRead sourceKeys) throws Exception;

    /**
     * Applies range {@code rangeId} from what was staged: queues the keys someone else wrote, writes the changed rows by
     * key except those, deletes the rows the source no longer has (queuing the source's keys the target lost), and
     * commits the range's receipt with them.
     *
     * @throws io.dpone.backfill.core.engine.LeaseLostException when the lease's epoch is no longer the campaign's
     */
    ChunkReconciled apply(CampaignLease lease, int pass, int rangeId, ChunkRange range) throws Exception;

    /** A read of the source, opened (and closed) by the target when it is ready to take it. */
    @FunctionalInterface
    interface SourceRead {
        ChunkRows open() throws Exception;
    }

    /** Drops what was staged. */
    @Override
    void close() throws Exception;
}

package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.plan.ChunkRange;

/**
 * The exactly-once chunk commit (src-docs/architecture.md section 5), in its one order: receipt first; then the
 * chunk's rows streamed from the source into the sink with a lease check between buffers; rows extracted must equal
 * rows loaded; the receipt records the count and the rows' content digest (ADR 0018); the ledger row moves to
 * committed fenced by owner and epoch; one commit.
 * A step that fails or finds the lease lost leaves the transaction to roll back whole: the chunk then has either
 * its rows, receipt and ledger row, or none of them.
 */
public final class ChunkProtocol implements ChunkCommitter {
    /** Rows between lease checks: a lost lease stops the stream within this many rows. */
    static final int CHECK_EVERY_ROWS = 1000;
    /** Where the mid-copy fault point fires when armed. */
    static final int MID_COPY_ROW = 500;

    private final ChunkSource source;
    private final ChunkSink sink;
    private final FaultPoints faults;
    private final RowPace pace;

    public ChunkProtocol(ChunkSource source, ChunkSink sink, FaultPoints faults) {
        this(source, sink, faults, RowPace.NONE);
    }

    /** {@code pace} sees every row as it streams by and holds the stream back when the lane is ahead of its ceiling. */
    public ChunkProtocol(ChunkSource source, ChunkSink sink, FaultPoints faults, RowPace pace) {
        this.source = source;
        this.sink = sink;
        this.faults = faults;
        this.pace = pace;
    }

    @Override
    public boolean repeatsOnRetry(Exception failure) {
        return sink.refusesRows(failure);
    }

    @Override
    public ChunkOutcome commit(ChunkClaim claim, ChunkRange range, LeaseWatch watch) throws Exception {
        long extracted;
        long loaded;
        ChunkDigest digest;
        try (ChunkTransaction tx = sink.begin(claim)) {
            if (!tx.insertReceipt()) {
                return ChunkOutcome.alreadyReceipted();
            }
            pace.chunkStarting();
            try (ChunkRows rows = source.open(range, sink.encoding())) {
                WatchedRows watched = new WatchedRows(rows, watch, tx, claim.chunkId());
                loaded = tx.load(watched);
                if (watched.leaseLost()) {
                    return ChunkOutcome.leaseLost("lease lost during copy");
                }
                extracted = watched.count();
                digest = rows.digest();
            }
            if (extracted != loaded) {
                throw new ChunkCountMismatchException(claim.chunkId(), extracted, loaded);
            }
            watch.copyFinished();
            tx.recordLoaded(loaded, digest);
            faults.reached(FaultPoint.BEFORE_COMMIT, claim.chunkId());
            if (!tx.markCommitted(extracted, loaded)) {
                return ChunkOutcome.leaseLost("epoch " + claim.epoch() + " no longer owns the chunk");
            }
            tx.commit();
        }
        faults.reached(FaultPoint.AFTER_COMMIT, claim.chunkId());
        return ChunkOutcome.committed(extracted, loaded);
    }

    /**
     * The source's rows as the sink pulls them, counted, with the lease checked every {@link #CHECK_EVERY_ROWS}
     * rows: a lost lease ends the stream early. Only an armed crash test pays for the mid-copy flush.
     */
    private final class WatchedRows implements ChunkRows {
        private final ChunkRows rows;
        private final LeaseWatch watch;
        private final ChunkTransaction tx;
        private final int chunkId;
        private final boolean midCopyArmed;
        private final boolean values;
        private long count;
        private boolean leaseLost;

        WatchedRows(ChunkRows rows, LeaseWatch watch, ChunkTransaction tx, int chunkId) {
            this.rows = rows;
            this.watch = watch;
            this.tx = tx;
            this.chunkId = chunkId;
            this.midCopyArmed = faults.armed(FaultPoint.MID_COPY);
            this.values = sink.encoding() == io.dpone.backfill.core.encoding.RowEncoding.VALUES;
        }

        @Override
        public boolean next() throws Exception {
            if (leaseLost) {
                return false;
            }
            if (count > 0 && count % CHECK_EVERY_ROWS == 0) {
                watch.copied(count);
                if (watch.lost()) {
                    leaseLost = true;
                    return false;
                }
            }
            if (midCopyArmed && count == MID_COPY_ROW) {
                tx.flush();
                faults.reached(FaultPoint.MID_COPY, chunkId);
            }
            if (!rows.next()) {
                return false;
            }
            count++;
            if (pace.passed(pace.countsBytes() ? RowSize.of(rows, values) : 0)) {
                watch.copied(count);
            }
            return true;
        }

        @Override
        public byte[] copyBytes() {
            return rows.copyBytes();
        }

        @Override
        public Object[] values() {
            return rows.values();
        }

        @Override
        public ChunkDigest digest() {
            return rows.digest();
        }

        long count() {
            return count;
        }

        boolean leaseLost() {
            return leaseLost;
        }

        @Override
        public void close() {
            // The protocol closes the source's rows itself.
        }
    }
}

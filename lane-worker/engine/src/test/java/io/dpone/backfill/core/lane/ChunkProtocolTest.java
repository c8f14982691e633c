package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.plan.ChunkRange;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The chunk-commit protocol over a hand-written source and sink that record every step: each branch (receipt
 * exists, lease lost mid-stream, count mismatch, fenced mark lost, crash before and after commit) in its order.
 */
class ChunkProtocolTest {
    private static final ChunkClaim CLAIM = new ChunkClaim("run", 3, "lane-0", 7, 1);
    private static final ChunkRange RANGE = new ChunkRange(3, BigInteger.ZERO, BigInteger.TEN);

    /** What the sink's transaction saw, in order. */
    private final List<String> steps = new ArrayList<>();

    @Test
    void aChunkCommitsReceiptFirstThenRowsThenTheCountThenTheFencedMarkThenOneCommit() throws Exception {
        FakeSink sink = new FakeSink();
        ChunkOutcome outcome = protocol(new FakeSource(2500), sink, FaultPoints.NONE).commit(CLAIM, RANGE, new FakeWatch());

        assertThat(outcome).isEqualTo(ChunkOutcome.committed(2500, 2500));
        assertThat(steps).containsExactly("begin", "receipt", "load 2500", "source closed", "recordLoaded 2500",
                "markCommitted 2500/2500", "commit", "close");
        assertThat(sink.committedRows).isEqualTo(2500);
    }

    @Test
    void anExistingReceiptLoadsNothingAndRollsBack() throws Exception {
        FakeSink sink = new FakeSink();
        sink.receiptExists = true;
        ChunkOutcome outcome = protocol(new FakeSource(10), sink, FaultPoints.NONE).commit(CLAIM, RANGE, new FakeWatch());

        assertThat(outcome.kind()).isEqualTo(ChunkOutcome.Kind.ALREADY_RECEIPTED);
        assertThat(steps).containsExactly("begin", "receipt", "close");
        assertThat(sink.committedRows).isZero();
    }

    @Test
    void aLeaseLostMidStreamStopsTheStreamWithinOneCheckAndRollsBackEverything() throws Exception {
        FakeSink sink = new FakeSink();
        FakeWatch watch = new FakeWatch();
        watch.lostAfterRows = 2000;
        FakeSource source = new FakeSource(10_000);
        ChunkOutcome outcome = protocol(source, sink, FaultPoints.NONE).commit(CLAIM, RANGE, watch);

        assertThat(outcome.kind()).isEqualTo(ChunkOutcome.Kind.LEASE_LOST);
        assertThat(source.read).isEqualTo(2000);
        assertThat(watch.reported).containsExactly(1000L, 2000L);
        assertThat(steps).containsExactly("begin", "receipt", "load 2000", "source closed", "close");
        assertThat(watch.finished).isFalse();
        assertThat(sink.committedRows).isZero();
    }

    @Test
    void rowsLoadedDifferentFromRowsExtractedFailTheChunkWithNothingCommitted() {
        FakeSink sink = new FakeSink();
        sink.dropRows = 1;
        assertThatThrownBy(() -> protocol(new FakeSource(1200), sink, FaultPoints.NONE).commit(CLAIM, RANGE, new FakeWatch()))
                .isInstanceOf(ChunkCountMismatchException.class)
                .hasMessageContaining("rows extracted (1200) differ from rows loaded (1199)");
        assertThat(steps).containsExactly("begin", "receipt", "load 1199", "source closed", "close");
        assertThat(sink.committedRows).isZero();
    }

    @Test
    void aFencedMarkThatMatchesNoRowIsALostLeaseAndNothingCommits() throws Exception {
        FakeSink sink = new FakeSink();
        sink.fenceHolds = false;
        ChunkOutcome outcome = protocol(new FakeSource(10), sink, FaultPoints.NONE).commit(CLAIM, RANGE, new FakeWatch());

        assertThat(outcome.kind()).isEqualTo(ChunkOutcome.Kind.LEASE_LOST);
        assertThat(outcome.detail()).contains("epoch 7 no longer owns the chunk");
        assertThat(steps).containsExactly("begin", "receipt", "load 10", "source closed", "recordLoaded 10",
                "markCommitted 10/10", "close");
        assertThat(sink.committedRows).isZero();
    }

    @Test
    void aCrashBeforeCommitComesAfterTheReceiptCountAndBeforeTheFencedMarkAndNothingCommits() {
        FakeSink sink = new FakeSink();
        assertThatThrownBy(() -> protocol(new FakeSource(10), sink, new CrashAt(FaultPoint.BEFORE_COMMIT))
                .commit(CLAIM, RANGE, new FakeWatch())).isInstanceOf(Crash.class);
        assertThat(steps).containsExactly("begin", "receipt", "load 10", "source closed", "recordLoaded 10",
                "crash before-commit", "close");
        assertThat(sink.committedRows).isZero();
    }

    @Test
    void aCrashAfterCommitFindsRowsReceiptAndLedgerRowCommitted() {
        FakeSink sink = new FakeSink();
        assertThatThrownBy(() -> protocol(new FakeSource(10), sink, new CrashAt(FaultPoint.AFTER_COMMIT))
                .commit(CLAIM, RANGE, new FakeWatch())).isInstanceOf(Crash.class);
        assertThat(steps).endsWith("commit", "close", "crash after-commit");
        assertThat(sink.committedRows).isEqualTo(10);
    }

    @Test
    void theMidCopyPointFlushesAfter500RowsOnlyWhenArmed() throws Exception {
        FakeSink sink = new FakeSink();
        protocol(new FakeSource(800), sink, FaultPoints.NONE).commit(CLAIM, RANGE, new FakeWatch());
        assertThat(steps).doesNotContain("flush at 500");

        steps.clear();
        CrashAt midCopy = new CrashAt(FaultPoint.MID_COPY);
        assertThatThrownBy(() -> protocol(new FakeSource(800), new FakeSink(), midCopy).commit(CLAIM, RANGE, new FakeWatch()))
                .isInstanceOf(Crash.class);
        assertThat(steps).containsExactly("begin", "receipt", "flush at 500", "crash mid-copy", "source closed", "close");
    }

    @Test
    void aSourceFailureMidStreamRollsBackAndClosesTheSource() {
        FakeSink sink = new FakeSink();
        FakeSource source = new FakeSource(5000);
        source.failAtRow = 1500;
        assertThatThrownBy(() -> protocol(source, sink, FaultPoints.NONE).commit(CLAIM, RANGE, new FakeWatch()))
                .hasMessageContaining("source connection reset");
        assertThat(steps).containsExactly("begin", "receipt", "source closed", "close");
        assertThat(sink.committedRows).isZero();
    }

    @Test
    void theSourceIsAskedForTheSinksEncodingAndTheChunksRange() throws Exception {
        FakeSource source = new FakeSource(1);
        protocol(source, new FakeSink(), FaultPoints.NONE).commit(CLAIM, RANGE, new FakeWatch());
        assertThat(source.openedRange).isEqualTo(RANGE);
        assertThat(source.openedEncoding).isEqualTo(RowEncoding.POSTGRES_COPY_TEXT);
    }

    @Test
    void aPacedChunkTellsTheStallDeadlineOfEveryWaitAndSizesRowsOnlyForAByteCeiling() throws Exception {
        // A pace that waits every 100th row: a slow ceiling must read as progress, not as a stall.
        List<Long> sized = new ArrayList<>();
        RowPace everyHundred = new RowPace() {
            long rows;

            @Override
            public boolean countsBytes() {
                return true;
            }

            @Override
            public boolean passed(long bytes) {
                sized.add(bytes);
                return ++rows % 100 == 0;
            }
        };
        FakeWatch watch = new FakeWatch();
        ChunkOutcome outcome = new ChunkProtocol(new FakeSource(250), new FakeSink(), FaultPoints.NONE, everyHundred)
                .commit(CLAIM, RANGE, watch);

        assertThat(outcome).isEqualTo(ChunkOutcome.committed(250, 250));
        assertThat(watch.reported).containsExactly(100L, 200L);
        assertThat(sized).hasSize(250).first().isEqualTo((long) "row 1\n".length());
    }

    private ChunkProtocol protocol(ChunkSource source, ChunkSink sink, FaultPoints faults) {
        return new ChunkProtocol(source, sink, faults);
    }

    private static final class Crash extends RuntimeException {
        Crash(String point) {
            super("crash at " + point);
        }
    }

    private final class CrashAt implements FaultPoints {
        private final FaultPoint point;

        CrashAt(FaultPoint point) {
            this.point = point;
        }

        @Override
        public void reached(FaultPoint reached, int chunkId) {
            if (reached == point) {
                steps.add("crash " + point.wireName());
                throw new Crash(point.wireName());
            }
        }

        @Override
        public boolean armed(FaultPoint p) {
            return p == point;
        }
    }

    private final class FakeSource implements ChunkSource {
        private final long rows;
        long read;
        long failAtRow = -1;
        ChunkRange openedRange;
        RowEncoding openedEncoding;

        FakeSource(long rows) {
            this.rows = rows;
        }

        @Override
        public ChunkRows open(ChunkRange range, RowEncoding encoding) {
            openedRange = range;
            openedEncoding = encoding;
            return new ChunkRows() {
                @Override
                public boolean next() {
                    if (read == failAtRow) {
                        throw new IllegalStateException("source connection reset");
                    }
                    if (read == rows) {
                        return false;
                    }
                    read++;
                    return true;
                }

                @Override
                public byte[] copyBytes() {
                    return ("row " + read + "\n").getBytes(StandardCharsets.UTF_8);
                }

                @Override
                public void close() {
                    steps.add("source closed");
                }
            };
        }
    }

    private final class FakeSink implements ChunkSink {
        boolean receiptExists;
        boolean fenceHolds = true;
        int dropRows;
        long committedRows;

        @Override
        public RowEncoding encoding() {
            return RowEncoding.POSTGRES_COPY_TEXT;
        }

        /** This fake's target refuses rows with a data exception, as the real sinks' SQLSTATE class 22 does. */
        @Override
        public boolean refusesRows(Exception failure) {
            return failure instanceof java.sql.SQLDataException;
        }

        @Override
        public ChunkTransaction begin(ChunkClaim claim) {
            steps.add("begin");
            return new ChunkTransaction() {
                long loaded;
                boolean committed;

                @Override
                public boolean insertReceipt() {
                    steps.add("receipt");
                    return !receiptExists;
                }

                @Override
                public long load(ChunkRows rows) throws Exception {
                    long seen = 0;
                    while (rows.next()) {
                        assertThat(rows.copyBytes()).isNotEmpty();
                        seen++;
                    }
                    loaded = seen - dropRows;
                    steps.add("load " + loaded);
                    return loaded;
                }

                @Override
                public void flush() {
                    steps.add("flush at 500");
                }

                @Override
                public void recordLoaded(long rowsLoaded, io.dpone.backfill.core.digest.ChunkDigest digest) {
                    steps.add("recordLoaded " + rowsLoaded);
                }

                @Override
                public boolean markCommitted(long rowsExtracted, long rowsLoaded) {
                    steps.add("markCommitted " + rowsExtracted + "/" + rowsLoaded);
                    return fenceHolds;
                }

                @Override
                public void commit() {
                    steps.add("commit");
                    committed = true;
                    committedRows = loaded;
                }

                @Override
                public void close() {
                    steps.add("close");
                }
            };
        }
    }

    private static final class FakeWatch implements LeaseWatch {
        long lostAfterRows = Long.MAX_VALUE;
        long lastReported;
        final List<Long> reported = new ArrayList<>();
        boolean finished;

        @Override
        public boolean lost() {
            return lastReported >= lostAfterRows;
        }

        @Override
        public void copied(long rows) {
            lastReported = rows;
            reported.add(rows);
        }

        @Override
        public void copyFinished() {
            finished = true;
        }
    }
}

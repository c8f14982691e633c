package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkEstimates;
import io.dpone.backfill.core.ledger.RunningChunk;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The ETA arithmetic on ledger counters alone: no database, no clock. */
class EtaTest {
    private static final String BASIS = "pg_stats histogram of 101 bounds and 0 common values, 600000 rows";

    /** 64 chunks, 60 small ones committed (1,000 rows each) in the first 20 s, one 420,000-row chunk waiting. */
    private static ChunkCounts skewed(ChunkEstimates estimates) {
        return new ChunkCounts(64, 4, 0, 60, 0, 0, 60_000, 60_000, 60_000, 20, estimates);
    }

    @Test
    void aWaitingHeavyChunkCountsByItsEstimateNotByTheAverageOfCommittedChunks() {
        ChunkCounts c = skewed(new ChunkEstimates(true, 423_000, List.of()));

        Eta eta = Eta.of(c, 3_000, BASIS);

        assertThat(eta.seconds()).isEqualTo(141L); // 423,000 rows / 3,000 rows/s
        assertThat(eta.basis()).isEqualTo("estimated rows remaining (" + BASIS + ")");
        // The old formula would say 4 chunks x 1,000 rows / 3,000 rows/s.
        assertThat(Eta.of(skewed(ChunkEstimates.NONE), 3_000, BASIS).seconds()).isEqualTo(1L);
    }

    @Test
    void aRunningChunkCountsItsEstimateLessTheRowsItsLaneReportedCopied() {
        // The heavy chunk reported 100,000 of its 420,000 rows copied; the 3 small waiting chunks count in full.
        ChunkCounts c = new ChunkCounts(64, 3, 1, 60, 0, 0, 60_000, 60_000, 60_000, 120,
                new ChunkEstimates(true, 3_000, List.of(new RunningChunk(420_000L, 100, 100_000))));

        assertThat(Eta.rowsRemaining(c)).isEqualTo(323_000.0);
        assertThat(Eta.of(c, 1_000, BASIS).seconds()).isEqualTo(323L);
    }

    @Test
    void aRunningChunkPastItsEstimateCountsAsNothingLeftRatherThanNegative() {
        ChunkCounts c = new ChunkCounts(4, 0, 1, 3, 0, 0, 3_000, 3_000, 3_000, 30,
                new ChunkEstimates(true, 0, List.of(new RunningChunk(1_000L, 25, 1_500))));

        assertThat(Eta.of(c, 100, BASIS).seconds()).isZero();
    }

    @Test
    void theRateCountsRowsCopiedByRunningChunksSoALongChunkInFlightIsNoStall() {
        // 30 s old, 3,000 rows committed; the heavy chunk has copied 60,000 rows in its 20 s, the other one 90,000
        // rows in 90 s of which the last 30 s (the window) count.
        ChunkCounts c = new ChunkCounts(4, 0, 2, 2, 0, 0, 3_000, 3_000, 3_000, 30,
                new ChunkEstimates(true, 0, List.of(new RunningChunk(420_000L, 20, 60_000),
                        new RunningChunk(100_000L, 90, 90_000))));

        assertThat(Eta.rowsPerSecond(c)).isEqualTo((3_000 + 60_000 + 30_000) / 30.0);
        assertThat(Eta.rowsPerSecond(new ChunkCounts(4, 0, 0, 2, 0, 0, 3_000, 3_000, 0, 120))).as("lifetime average when"
                + " nothing moved in the last minute").isEqualTo(25.0);
    }

    @Test
    void aFewEstimatedRowsLeftRoundUpToOneSecondRatherThanZero() {
        ChunkCounts c = skewed(new ChunkEstimates(true, 10, List.of()));

        assertThat(Eta.of(c, 3_000, BASIS).seconds()).isEqualTo(1L);
    }

    @Test
    void anOldLedgerWithoutEstimatesFallsBackToTheAverageOfCommittedChunksAndSaysSo() {
        ChunkCounts c = new ChunkCounts(10, 5, 0, 5, 0, 0, 5_000, 5_000, 5_000, 10);

        Eta eta = Eta.of(c, 500, null);

        assertThat(eta.seconds()).isEqualTo(10L);
        assertThat(eta.basis()).isEqualTo(Eta.AVERAGE_BASIS);
    }

    @Test
    void estimatesMissingForSomeChunkStillToLoadFallBackToTheAverage() {
        ChunkCounts c = new ChunkCounts(10, 5, 0, 5, 0, 0, 5_000, 5_000, 5_000, 10,
                new ChunkEstimates(false, 400, List.of()));

        assertThat(Eta.of(c, 500, BASIS).basis()).isEqualTo(Eta.AVERAGE_BASIS);
    }

    @Test
    void theEtaIsUnknownBeforeTheFirstCommitAndZeroWhenEveryChunkIsCommitted() {
        ChunkEstimates e = new ChunkEstimates(true, 1_000, List.of());
        assertThat(Eta.of(new ChunkCounts(4, 4, 0, 0, 0, 0, 0, 0, 0, 0, e), 0, BASIS).seconds()).isNull();
        assertThat(Eta.of(new ChunkCounts(4, 0, 0, 4, 0, 0, 9, 9, 9, 3, e), 3, BASIS).seconds()).isZero();
    }

    @Test
    void theStatusCarriesTheBasisNextToTheEta() {
        ChunkCounts c = skewed(new ChunkEstimates(true, 423_000, List.of()));

        var progress = CampaignStatusProjector.progress(c, BASIS);

        assertThat(progress.getRowsPerSecond()).isEqualTo(3_000.0); // 60,000 rows committed over the first 20 s
        assertThat(progress.getEtaSeconds()).isEqualTo(141L);
        assertThat(progress.getEtaBasis()).startsWith("estimated rows remaining (pg_stats histogram");
    }
}

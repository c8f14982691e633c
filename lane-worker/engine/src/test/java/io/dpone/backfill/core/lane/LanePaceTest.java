package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.ledger.ThrottleSetting;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The ceiling proven on a clock the test moves (issue 28): a source that could deliver a row every microsecond
 * (a million rows a second) is paced, and the rate is measured as rows over the time the clock says passed, the
 * pace's own sleeps included. No wall-clock time is asserted.
 */
class LanePaceTest {
    private static final long ROW_NANOS = 1_000;

    /** A clock whose sleep moves it: time passes only by reading rows and by waiting. */
    static final class MovedClock implements PaceClock {
        long now = 1_000_000_000L;
        long slept;

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void sleepNanos(long nanos) {
            now += nanos;
            slept += nanos;
        }
    }

    private final MovedClock clock = new MovedClock();
    private final List<String> log = new ArrayList<>();

    /** Reads {@code rows} rows of {@code bytes} each at the source's own speed; returns the rows a second measured. */
    private double read(LanePace pace, long rows, long bytes) throws InterruptedException {
        long start = clock.now;
        for (long i = 0; i < rows; i++) {
            clock.now += ROW_NANOS;
            pace.passed(pace.countsBytes() ? bytes : 0);
        }
        return rows / ((clock.now - start) / 1e9);
    }

    private LanePace pace(ThrottleSetting setting, int readers) {
        return new LanePace(() -> setting, () -> readers, clock, log::add);
    }

    /** A pace past its first slice (a bucket starts full), so what follows measures its steady rate. */
    private LanePace steady(LanePace pace, long rows, long bytes) throws InterruptedException {
        read(pace, rows, bytes);
        return pace;
    }

    @Test
    void aLaneAloneReadsAtItsCeilingAndNeverFasterOverAMillionRows() throws InterruptedException {
        double measured = read(steady(pace(new ThrottleSetting(100_000, 0, 1), 1), 200_000, 0), 1_000_000, 0);

        assertThat(measured).isLessThanOrEqualTo(100_000 * 1.001).isCloseTo(100_000, within(100_000 * 0.01));
    }

    @Test
    void aLaneStartsWithOneSliceInHandAndNeverMore() throws InterruptedException {
        // A second of a 10,000 rows/s share: the first 10,000 rows go at the source's speed, then the lane waits.
        LanePace pace = pace(new ThrottleSetting(10_000, 0, 1), 1);
        read(pace, 10_000, 0);
        long sleptInTheSlice = clock.slept;
        read(pace, 10_000, 0);

        assertThat(sleptInTheSlice).isZero();
        assertThat(clock.slept).isGreaterThan(900_000_000L);
    }

    @Test
    void chunksSmallerThanASliceArePacedFromTheirFirstRow() throws InterruptedException {
        // 20 rows/s for two lanes: this lane's share is 10 rows/s; its chunks have 300 rows.
        LanePace pace = pace(new ThrottleSetting(20, 0, 2), 2);
        long start = clock.now;
        long rows = 0;
        for (int chunk = 0; chunk < 4; chunk++) {
            pace.chunkStarting();
            read(pace, 300, 0);
            rows += 300;
        }
        double seconds = (clock.now - start) / 1e9;

        assertThat((double) rows).isLessThanOrEqualTo(10 * seconds + 10 * LanePace.SLICE.toSeconds() + 1);
        assertThat(seconds).as("1,200 rows at 10 rows/s").isGreaterThan(118);
    }

    @Test
    void eachOfFourLanesReadsAQuarterOfTheCampaignsCeiling() throws InterruptedException {
        double measured = read(steady(pace(new ThrottleSetting(100_000, 0, 4), 4), 50_000, 0), 500_000, 0);

        assertThat(measured).isLessThanOrEqualTo(25_000 * 1.001).isCloseTo(25_000, within(25_000 * 0.01));
    }

    @Test
    void inAnySpanALaneExceedsItsShareByAtMostOneSliceEvenAfterAPause() throws InterruptedException {
        LanePace pace = pace(new ThrottleSetting(20_000, 0, 1), 1);
        read(pace, 100_000, 0);
        clock.now += 10_000_000_000L; // ten seconds without reading: a commit, a claim, a slow source
        long start = clock.now;
        long rows = 0;
        for (int i = 0; i < 1_000_000; i++) {
            clock.now += ROW_NANOS;
            pace.passed(0);
            rows++;
            double allowed = 20_000 * ((clock.now - start) / 1e9) + 20_000 * LanePace.SLICE.toSeconds()
                    + 20_000 / LanePace.CHECKS_PER_SECOND + 1;
            if (rows > allowed) {
                throw new AssertionError(rows + " rows after " + (clock.now - start) + " ns: more than " + allowed);
            }
        }
        assertThat(rows).isEqualTo(1_000_000);
        assertThat(rows / ((clock.now - start) / 1e9)).as("over 50 s the pause's catch-up is one second in fifty")
                .isLessThanOrEqualTo(20_000 * 1.021);
    }

    @Test
    void pausesBetweenChunksShorterThanASliceCostTheLaneNoRate() throws InterruptedException {
        LanePace pace = pace(new ThrottleSetting(25_000, 0, 1), 1);
        long start = clock.now;
        long rows = 0;
        for (int chunk = 0; chunk < 20; chunk++) {
            pace.chunkStarting();
            rows += 62_500;
            read(pace, 62_500, 0);
            clock.now += 300_000_000L; // the commit and the next claim: 0.3 s of reading nothing
        }
        double seconds = (clock.now - start) / 1e9;

        assertThat((double) rows).as("at most the share and the slice a lane starts with")
                .isLessThanOrEqualTo(25_000 * seconds + 25_000 * LanePace.SLICE.toSeconds() + 1);
        assertThat(rows / seconds).isGreaterThan(25_000 * 0.98);
    }

    @Test
    void aByteCeilingPacesRowsByTheirSize() throws InterruptedException {
        // 1 MB/s of 100-byte rows: 10,000 rows a second at most.
        double measured = read(steady(pace(new ThrottleSetting(0, 1_000_000, 1), 1), 20_000, 100), 200_000, 100);

        assertThat(measured).isLessThanOrEqualTo(10_000 * 1.001).isCloseTo(10_000, within(10_000 * 0.01));
    }

    @Test
    void theLowerOfARowAndAByteCeilingHolds() throws InterruptedException {
        double measured = read(steady(pace(new ThrottleSetting(50_000, 1_000_000, 1), 1), 20_000, 100), 200_000, 100);

        assertThat(measured).isLessThanOrEqualTo(10_000 * 1.001);
    }

    @Test
    void aLaneSlowerThanItsShareNeverWaits() throws InterruptedException {
        // A million rows a second from the source, a ceiling of two million: the lane reads at its own speed.
        LanePace pace = pace(new ThrottleSetting(2_000_000, 0, 1), 1);
        read(pace, 500_000, 0);

        assertThat(clock.slept).isZero();
        assertThat(log).noneMatch(l -> l.startsWith("throttled"));
    }

    @Test
    void withoutACeilingTheLaneNeverWaitsAndNeverCountsChunksLeft() throws InterruptedException {
        AtomicInteger countsRead = new AtomicInteger();
        LanePace pace = new LanePace(() -> ThrottleSetting.NONE, () -> countsRead.incrementAndGet(), clock, log::add);
        read(pace, 3_000_000, 0);

        assertThat(clock.slept).isZero();
        assertThat(countsRead).as("the chunk counts are read only under a ceiling").hasValue(0);
        assertThat(pace.countsBytes()).isFalse();
    }

    @Test
    void aCeilingChangedWhileTheLaneReadsHoldsWithinASecond() throws InterruptedException {
        AtomicReference<ThrottleSetting> ledger = new AtomicReference<>(new ThrottleSetting(100_000, 0, 1));
        LanePace pace = new LanePace(ledger::get, () -> 1, clock, log::add);
        read(pace, 300_000, 0);

        ledger.set(new ThrottleSetting(10_000, 0, 1));
        read(pace, 10_000, 0); // the next refresh, at most a second away, reads the new ceiling
        double lowered = read(pace, 100_000, 0);
        ledger.set(new ThrottleSetting(0, 0, 1));
        read(pace, 20_000, 0);
        double lifted = read(pace, 1_000_000, 0);

        assertThat(lowered).isLessThanOrEqualTo(10_000 * 1.001).isCloseTo(10_000, within(100.0));
        assertThat(lifted).as("no ceiling: the source's own speed").isCloseTo(1e9 / ROW_NANOS, within(1.0));
        assertThat(log).contains("ceiling 10000 rows/s");
    }

    @Test
    void whenFewerChunksThanLanesAreLeftTheReadersShareTheWholeCeiling() throws InterruptedException {
        AtomicInteger chunksLeft = new AtomicInteger(8);
        LanePace pace = new LanePace(() -> new ThrottleSetting(100_000, 0, 4), chunksLeft::get, clock, log::add);
        double fourReading = read(steady(pace, 50_000, 0), 200_000, 0);
        chunksLeft.set(1);
        read(pace, 100_000, 0);
        double alone = read(pace, 500_000, 0);

        assertThat(fourReading).isLessThanOrEqualTo(25_000 * 1.001);
        assertThat(alone).isLessThanOrEqualTo(100_000 * 1.001).isCloseTo(100_000, within(1_000.0));
    }

    @Test
    void aWaitingLaneSaysSoAtMostOnceEveryThirtySeconds() throws InterruptedException {
        LanePace pace = pace(new ThrottleSetting(1_000, 0, 4), 4);
        read(pace, 25_000, 0); // 250 rows/s for this lane: 100 s of reading

        List<String> waits = log.stream().filter(l -> l.startsWith("throttled")).toList();
        assertThat(waits).hasSizeBetween(3, 4);
        assertThat(waits.get(0)).contains("1000 rows/s shared by 4 lanes").contains("this lane's share 250 rows/s");
    }

    @Test
    void aLedgerThatDoesNotAnswerLeavesTheLastCeilingInForce() throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        LanePace pace = new LanePace(() -> {
            if (calls.incrementAndGet() > 1) {
                throw new IllegalStateException("ledger unreachable");
            }
            return new ThrottleSetting(50_000, 0, 1);
        }, () -> 1, clock, log::add);
        double measured = read(steady(pace, 100_000, 0), 500_000, 0);

        assertThat(calls.get()).isGreaterThan(1);
        assertThat(measured).isLessThanOrEqualTo(50_000 * 1.001);
    }

    @Test
    void theShareOfAReaderIsTheCeilingOverTheLanesThatCanBeReading() {
        ThrottleSetting campaign = new ThrottleSetting(100_000, 40_000_000, 4);

        assertThat(campaign.shareOf(8)).isEqualTo(new ThrottleSetting(25_000, 10_000_000, 1));
        assertThat(campaign.shareOf(2)).isEqualTo(new ThrottleSetting(50_000, 20_000_000, 1));
        assertThat(campaign.shareOf(0)).isEqualTo(new ThrottleSetting(100_000, 40_000_000, 1));
        assertThat(new ThrottleSetting(3, 0, 4).shareOf(4)).as("never rounded down to no ceiling")
                .isEqualTo(new ThrottleSetting(1, 0, 1));
        assertThat(ThrottleSetting.NONE.shareOf(4).limited()).isFalse();
    }
}

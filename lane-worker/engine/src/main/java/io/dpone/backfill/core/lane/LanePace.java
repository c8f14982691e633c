package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.ThrottleSetting;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * One lane's pace under the campaign's ceiling (issue 28). The lane's share is the ceiling divided by the lanes that
 * can be reading: the driver's lane count, or the chunks left when fewer are. Chunks left only go down, so a share
 * read a second ago is never larger than today's: the lanes together stay under the ceiling without talking to each
 * other. Rows are paced in a token bucket whose burst is one slice, a second of the lane's share: a lane that did not
 * read for a moment (it committed its chunk, claimed the next) may catch up by that much and no more, so in any span
 * the campaign exceeds its ceiling by at most one slice a lane. The ceiling is re-read at most every {@link #REFRESH_EVERY} and at each
 * chunk's start, so a changed ceiling reaches a running lane within a second.
 */
public final class LanePace implements RowPace {
    static final Duration REFRESH_EVERY = Duration.ofSeconds(1);
    static final Duration LOG_EVERY = Duration.ofSeconds(30);
    /** Waits shorter than this in total are not worth a line (a first slice, a brief burst). */
    static final Duration LOG_AFTER_WAITING = Duration.ofSeconds(1);
    /** Rows between two looks at the clock when the lane is not limited by rows (a byte ceiling, or none yet). */
    static final int MAX_SLICE_ROWS = 1000;
    /**
     * A slice: how far a lane may read ahead of its share after a pause, the bound on its overshoot. A second covers
     * the commit and the next claim between two chunks, during which the lane reads nothing; less, and the lanes
     * together fall short of the ceiling by those pauses (92% of it in a bench of 2.5 s chunks with a twentieth).
     */
    static final Duration SLICE = Duration.ofSeconds(1);
    /** How often a lane under a row ceiling looks at the clock: this many times a second of its share. */
    static final int CHECKS_PER_SECOND = 20;

    private final Supplier<ThrottleSetting> ceiling;
    private final IntSupplier readers;
    private final PaceClock clock;
    private final Consumer<String> log;
    private final TokenBucket rows;
    private final TokenBucket bytes;
    private ThrottleSetting campaign = ThrottleSetting.NONE;
    private ThrottleSetting share = ThrottleSetting.NONE;
    /** False until the ceiling was first read: until then every row's size is counted, in case it has a byte part. */
    private boolean read;
    private int sliceRows = MAX_SLICE_ROWS;
    private long rowsInSlice;
    private long bytesInSlice;
    private long nextRefresh;
    private long nextLog;
    private long waitedSinceLog;
    private long waitedTotal;

    /**
     * {@code ceiling} reads the campaign's ceiling, {@code readers} how many lanes can be reading at most; both are
     * called at most once a second.
     */
    public LanePace(Supplier<ThrottleSetting> ceiling, IntSupplier readers, PaceClock clock, Consumer<String> log) {
        this.ceiling = ceiling;
        this.readers = readers;
        this.clock = clock;
        this.log = log;
        long now = clock.nanoTime();
        this.rows = new TokenBucket(0, 0, now);
        this.bytes = new TokenBucket(0, 0, now);
        this.nextRefresh = now;
        this.nextLog = now;
    }

    /** The pace of a lane of run {@code runKey}: the ceiling and the chunks left, both from the ledger. */
    public static LanePace fromLedger(LedgerStore ledger, String runKey, int maxAttempts, PaceClock clock,
                                      Consumer<String> log) {
        return new LanePace(() -> ledger.throttle(runKey), () -> chunksLeft(ledger.counts(runKey, maxAttempts)), clock, log);
    }

    /** Chunks some lane may still read: pending, running and failed ones not out of attempts (never goes up). */
    static int chunksLeft(ChunkCounts c) {
        return c.pending() + c.running() + c.failed() - c.failedExhausted();
    }

    /**
     * Reads the ceiling before the chunk's first row, so the slice fits the share from the start: a chunk smaller
     * than the default slice (a thousand rows) would otherwise go by unpaced.
     */
    @Override
    public void chunkStarting() {
        refresh(clock.nanoTime());
    }

    @Override
    public boolean countsBytes() {
        return !read || share.bytesPerSecond() > 0;
    }

    @Override
    public boolean passed(long rowBytes) throws InterruptedException {
        rowsInSlice++;
        bytesInSlice += rowBytes;
        return rowsInSlice >= sliceRows && settle();
    }

    /** Nanoseconds this lane has waited for the ceiling since it started. */
    public long waitedNanos() {
        return waitedTotal;
    }

    /** The lane's share as last read. */
    public ThrottleSetting share() {
        return share;
    }

    /** Takes the slice from the buckets, waits as long as they say; true when it waited. */
    private boolean settle() throws InterruptedException {
        long now = clock.nanoTime();
        if (now - nextRefresh >= 0) {
            refresh(now);
        }
        long wait = Math.max(rows.take(rowsInSlice, now), bytes.take(bytesInSlice, now));
        rowsInSlice = 0;
        bytesInSlice = 0;
        if (wait > 0) {
            clock.sleepNanos(wait);
            waitedSinceLog += wait;
            waitedTotal += wait;
            long after = clock.nanoTime();
            if (after - nextLog >= 0 && waitedSinceLog >= LOG_AFTER_WAITING.toNanos()) {
                // One line per LOG_EVERY at most, never one per row: how long the lane waited and for what.
                log.accept(String.format("throttled: waited %.1f s for the ceiling (%s; this lane's share %s)",
                        waitedSinceLog / 1e9, campaign.describe(), share.describe()));
                waitedSinceLog = 0;
                nextLog = after + LOG_EVERY.toNanos();
            }
            return true;
        }
        return false;
    }

    private void refresh(long now) {
        nextRefresh = now + REFRESH_EVERY.toNanos();
        ThrottleSetting read;
        int reading;
        try {
            read = ceiling.get();
            reading = read.limited() ? readers.getAsInt() : read.lanes();
        } catch (RuntimeException e) {
            // The ledger did not answer: keep pacing at the ceiling last read; the lease renewal judges the ledger.
            return;
        }
        ThrottleSetting newShare = read.shareOf(reading);
        if (!newShare.equals(share)) {
            if (!read.equals(campaign)) {
                log.accept("ceiling " + read.describe());
            }
            double slice = SLICE.toNanos() / 1e9;
            rows.reset(newShare.rowsPerSecond(), Math.max(1.0, newShare.rowsPerSecond() * slice), now);
            bytes.reset(newShare.bytesPerSecond(), Math.max(1.0, newShare.bytesPerSecond() * slice), now);
            sliceRows = newShare.rowsPerSecond() > 0
                    ? (int) Math.max(1, Math.min(MAX_SLICE_ROWS, newShare.rowsPerSecond() / CHECKS_PER_SECOND))
                    : MAX_SLICE_ROWS;
        }
        campaign = read;
        share = newShare;
        this.read = true;
    }
}

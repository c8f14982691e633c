package io.dpone.backfill.core.lane;

/**
 * The time a lane paces itself by: a monotonic reading and a sleep. Tests inject one whose sleep moves its reading,
 * so a ceiling is proven by measured rows over measured time without waiting on the wall clock.
 */
public interface PaceClock {
    PaceClock SYSTEM = new PaceClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleepNanos(long nanos) throws InterruptedException {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        }
    };

    long nanoTime();

    void sleepNanos(long nanos) throws InterruptedException;
}

package io.dpone.backfill.core.lane;

/**
 * A token bucket: {@code rate} tokens a second, at most {@code burst} saved up. Taking more than the bucket holds
 * says how long to wait; the debt is repaid by the time that passes, so a caller that waits as told never takes
 * more than {@code rate * t + burst} in any span t. A bucket that gets its first rate starts full: lanes start a
 * moment apart and their first rows come slowly (a cold source, a new connection), which the burst makes up for.
 */
final class TokenBucket {
    private double rate;
    private double burst;
    private double tokens;
    private long last;

    TokenBucket(double rate, double burst, long now) {
        this.rate = rate;
        this.burst = burst;
        this.last = now;
    }

    /** A new rate and burst from now on; what was saved up beyond the new burst is dropped, a debt is kept. */
    void reset(double newRate, double newBurst, long now) {
        refill(now);
        boolean first = rate <= 0;
        rate = newRate;
        burst = newBurst;
        tokens = first ? burst : Math.min(tokens, burst);
    }

    /** Takes {@code n} tokens; returns the nanoseconds to wait before going on (0: none). No rate: never waits. */
    long take(double n, long now) {
        if (rate <= 0) {
            return 0;
        }
        refill(now);
        tokens -= n;
        return tokens >= 0 ? 0 : (long) Math.ceil(-tokens / rate * 1e9);
    }

    private void refill(long now) {
        if (rate > 0) {
            tokens = Math.min(burst, tokens + (now - last) * rate / 1e9);
        }
        last = now;
    }
}

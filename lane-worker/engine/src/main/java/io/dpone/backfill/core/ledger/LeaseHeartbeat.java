package io.dpone.backfill.core.ledger;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When a lease renewal last succeeded, and whether it has been silent for most of the lease's TTL. One rule for the
 * campaign lease of the CLI driver and of the operator and for a lane's chunk lease: a renewal silent that long means
 * the state connection is gone or hung, and its holder aborts what is blocked on it before another driver or lane
 * may take the lease over (ADR 0020). Read on the monotonic clock, never the wall clock.
 */
public final class LeaseHeartbeat {
    private final long silenceNanos;
    private final LongSupplier nanoTime;
    private volatile long lastNanos;

    public LeaseHeartbeat(Duration ttl) {
        this(ttl, System::nanoTime);
    }

    LeaseHeartbeat(Duration ttl, LongSupplier nanoTime) {
        // Most of the TTL: the renewal that would prove the lease still has a fifth of it to land.
        this.silenceNanos = ttl.toNanos() * 8 / 10;
        this.nanoTime = nanoTime;
        this.lastNanos = nanoTime.getAsLong();
    }

    /** A renewal succeeded (or the lease was just taken, or a reconnect starts the count again). */
    public void beat() {
        lastNanos = nanoTime.getAsLong();
    }

    /** True when no renewal succeeded for most of the TTL. */
    public boolean silent() {
        return nanoTime.getAsLong() - lastNanos > silenceNanos;
    }

    /** Whole seconds since the last successful renewal, for a person. */
    public long silentSeconds() {
        return (nanoTime.getAsLong() - lastNanos) / 1_000_000_000L;
    }
}

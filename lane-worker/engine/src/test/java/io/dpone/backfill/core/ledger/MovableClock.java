package io.dpone.backfill.core.ledger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that stands still until a test moves it: lease expiries without sleeping. Safe across lane threads. */
public final class MovableClock extends Clock {
    private final AtomicReference<Instant> now;

    public MovableClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    public MovableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    /** Moves the clock forward; a negative duration is refused, since leases never run backwards. */
    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a clock only moves forward: " + duration);
        }
        now.updateAndGet(instant -> instant.plus(duration));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("leases are compared as instants; a zone is never needed");
    }
}

package io.dpone.backfill.core.heal;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Bounded exponential back-off over one outage: the delay doubles from the first back-off up to the longest, and
 * the outage is over budget once it has lasted longer than the budget since its first failure. {@link #healed()}
 * ends the outage, so the next failure starts a new one with a full budget.
 */
public final class ReconnectBackoff {
    private final HealingTimings timings;
    private final LongSupplier nanoClock;
    private long outageStartedNanos = -1;
    private int attempts;

    ReconnectBackoff(HealingTimings timings, LongSupplier nanoClock) {
        this.timings = timings;
        this.nanoClock = nanoClock;
    }

    /** Records one failed attempt and returns how long to wait before the next, or empty once over budget. */
    public java.util.Optional<Duration> failed() {
        long now = nanoClock.getAsLong();
        if (outageStartedNanos < 0) {
            outageStartedNanos = now;
        }
        attempts++;
        if (now - outageStartedNanos > timings.budget().toNanos()) {
            return java.util.Optional.empty();
        }
        long delay = timings.firstBackoff().toMillis() << Math.min(attempts - 1, 20);
        return java.util.Optional.of(Duration.ofMillis(Math.min(delay, timings.maxBackoff().toMillis())));
    }

    /** Attempts so far in this outage. */
    public int attempts() {
        return attempts;
    }

    /** How much of the budget is left in this outage. */
    public Duration remaining() {
        if (outageStartedNanos < 0) {
            return timings.budget();
        }
        long left = timings.budget().toNanos() - (nanoClock.getAsLong() - outageStartedNanos);
        return Duration.ofNanos(Math.max(0, left));
    }

    /**
     * Records a failed attempt of {@code what}, says on {@code log} why and how long until the next one, and waits
     * that long; once the outage is over budget it says so and throws {@code cause}. One wording for the CLI driver
     * and the lanes, so a person reads every reconnect the same way.
     */
    public <E extends Exception> void pauseOrGiveUp(String what, E cause, java.util.function.Consumer<String> log)
            throws E, InterruptedException {
        java.util.Optional<Duration> wait = failed();
        if (wait.isEmpty()) {
            log.accept(what + ": still failing after the reconnect budget (" + timings.budget().toSeconds()
                    + " s, BACKFILL_RECONNECT_BUDGET_SECONDS); giving up: " + ConnectionLoss.describe(cause));
            throw cause;
        }
        log.accept(String.format("%s: %s; reconnecting in %.1f s (attempt %d, %d s of the reconnect budget left)",
                what, ConnectionLoss.describe(cause), wait.get().toMillis() / 1000.0, attempts(), remaining().toSeconds()));
        Thread.sleep(wait.get().toMillis());
    }

    public void healed() {
        outageStartedNanos = -1;
        attempts = 0;
    }
}

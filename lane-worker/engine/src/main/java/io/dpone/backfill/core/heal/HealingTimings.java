package io.dpone.backfill.core.heal;

import io.dpone.backfill.core.engine.EngineTimings;

import java.time.Duration;
import java.util.Map;

/**
 * How long a lane or driver keeps healing a lost connection before it gives the fault to a person (the budget),
 * the bounds of its exponential back-off, and the deadline after which a chunk that made no progress (no rows, no
 * lease renewal) counts as hung and its connections are aborted. Defaults documented in the runbook; tests shorten
 * them through the environment.
 */
public record HealingTimings(Duration budget, Duration firstBackoff, Duration maxBackoff, Duration stallDeadline) {
    public static final HealingTimings DEFAULTS = new HealingTimings(Duration.ofMinutes(5), Duration.ofMillis(500),
            Duration.ofSeconds(15), Duration.ofSeconds(120));

    public HealingTimings {
        if (firstBackoff.compareTo(maxBackoff) > 0) {
            throw new IllegalArgumentException("the first back-off (" + firstBackoff + ") exceeds the longest (" + maxBackoff + ")");
        }
    }

    /** Reads BACKFILL_RECONNECT_BUDGET_SECONDS and BACKFILL_STALL_SECONDS. */
    public static HealingTimings fromEnvironment(Map<String, String> env) {
        return new HealingTimings(EngineTimings.seconds(env, "BACKFILL_RECONNECT_BUDGET_SECONDS", DEFAULTS.budget), DEFAULTS.firstBackoff,
                DEFAULTS.maxBackoff, EngineTimings.seconds(env, "BACKFILL_STALL_SECONDS", DEFAULTS.stallDeadline));
    }

    public ReconnectBackoff backoff() {
        return new ReconnectBackoff(this, System::nanoTime);
    }
}

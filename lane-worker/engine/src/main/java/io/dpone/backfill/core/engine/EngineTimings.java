package io.dpone.backfill.core.engine;

import java.time.Duration;
import java.util.Map;

/**
 * Lease and drain timings. The defaults are the reference design's (90 s TTL renewed every 30 s); tests shorten
 * them through the environment so that lease expiry can be exercised in seconds.
 */
public record EngineTimings(Duration leaseTtl, Duration renewEvery, Duration drainTimeout, Duration lockTimeout) {
    public static final EngineTimings DEFAULTS = new EngineTimings(Duration.ofSeconds(90), Duration.ofSeconds(30),
            Duration.ofSeconds(120), Duration.ofSeconds(30));

    public EngineTimings {
        if (renewEvery.compareTo(leaseTtl) >= 0) {
            throw new IllegalArgumentException("lease renewal (" + renewEvery + ") must be shorter than its TTL (" + leaseTtl + ")");
        }
    }

    /** Reads BACKFILL_LEASE_TTL_SECONDS, BACKFILL_LEASE_RENEW_SECONDS, BACKFILL_DRAIN_SECONDS, BACKFILL_LOCK_TIMEOUT_SECONDS. */
    public static EngineTimings fromEnvironment(Map<String, String> env) {
        return new EngineTimings(
                seconds(env, "BACKFILL_LEASE_TTL_SECONDS", DEFAULTS.leaseTtl),
                seconds(env, "BACKFILL_LEASE_RENEW_SECONDS", DEFAULTS.renewEvery),
                seconds(env, "BACKFILL_DRAIN_SECONDS", DEFAULTS.drainTimeout),
                seconds(env, "BACKFILL_LOCK_TIMEOUT_SECONDS", DEFAULTS.lockTimeout));
    }

    /** A positive number of seconds from {@code env}, or {@code fallback} when unset; shared by every timing. */
    public static Duration seconds(Map<String, String> env, String name, Duration fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            double s = Double.parseDouble(value.trim());
            if (s <= 0) {
                throw new NumberFormatException();
            }
            return Duration.ofMillis((long) (s * 1000));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a positive number of seconds, got '" + value + "'");
        }
    }
}

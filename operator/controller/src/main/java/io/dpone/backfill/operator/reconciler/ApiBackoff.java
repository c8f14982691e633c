package io.dpone.backfill.operator.reconciler;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Back-off for a pass that a Kubernetes API call ended (429, 5xx, a refused connection while the API server
 * restarts, a conflict). The reconciler reschedules the campaign itself with this delay instead of throwing: a
 * thrown exception goes to JOSDK's retry, which gives up after 5 attempts (operator-framework/java-operator-sdk
 * GradualRetry: DEFAULT_MAX_ATTEMPTS 5, 2 s initial, x1.5) and then leaves the campaign alone until some other event
 * or the maximum reconciliation interval (10 hours by default). 1 s, doubling, at most {@link #MAX}; a pass that
 * ends normally resets it.
 */
final class ApiBackoff {
    static final Duration FIRST = Duration.ofSeconds(1);
    static final Duration MAX = Duration.ofSeconds(10);

    private final Map<String, Integer> failures = new ConcurrentHashMap<>();

    Duration next(String campaign) {
        int n = failures.merge(campaign, 1, Integer::sum);
        long millis = FIRST.toMillis() << Math.min(n - 1, 20);
        return millis >= MAX.toMillis() ? MAX : Duration.ofMillis(millis);
    }

    void reset(String campaign) {
        failures.remove(campaign);
    }

}

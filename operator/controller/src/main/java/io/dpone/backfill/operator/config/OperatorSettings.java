package io.dpone.backfill.operator.config;

import io.dpone.backfill.core.campaign.ResourceAmounts;
import io.dpone.backfill.core.engine.EngineTimings;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything the operator needs that is not in a campaign: its stable lease owner id, lease timings (shared with
 * the lanes), the lane pod defaults and the reconcile cadence. Plain values, so the reconciler runs the same on
 * plain JOSDK in tests and under Quarkus, where {@link OperatorConfig} fills it in.
 *
 * @param instanceId         owner of campaign leases in the ledger; stable for one operator instance
 * @param timings            lease TTL/renewal, lane drain and lock timeout (the engine's {@link EngineTimings})
 * @param laneEnvironment    extra environment for lane pods (the BACKFILL_* timing overrides, when set)
 * @param activePoll         reconcile interval while a campaign is active (at most 10 s)
 * @param progressInterval   minimum interval between status patches that only change progress counters (at most 30 s)
 */
public record OperatorSettings(String instanceId, EngineTimings timings, LaneDefaults lanes, Map<String, String> laneEnvironment,
                               Duration activePoll, Duration progressInterval) {
    public static final Duration MAX_ACTIVE_POLL = Duration.ofSeconds(10);
    public static final Duration MAX_PROGRESS_INTERVAL = Duration.ofSeconds(30);

    public OperatorSettings {
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(timings, "timings");
        Objects.requireNonNull(lanes, "lanes");
        laneEnvironment = Map.copyOf(laneEnvironment);
        if (activePoll.isNegative() || activePoll.isZero() || activePoll.compareTo(MAX_ACTIVE_POLL) > 0) {
            throw new IllegalArgumentException("activePoll must be in (0, 10s], got " + activePoll);
        }
        if (progressInterval.isNegative() || progressInterval.compareTo(MAX_PROGRESS_INTERVAL) > 0) {
            throw new IllegalArgumentException("progressInterval must be in [0, 30s], got " + progressInterval);
        }
    }

    /**
     * Lane pod defaults: the image and command that run {@code backfill lane}, the resources a campaign gets when its
     * {@code spec.lane.resources} leaves them out, and the images a campaign's {@code spec.lane.image} may name: the
     * default {@code image} and {@code allowedImages} (ADR 0045).
     */
    public record LaneDefaults(String image, String imagePullPolicy, List<String> command, ResourceAmounts requests,
                               ResourceAmounts limits, String serviceAccountName, long runAsUser, Set<String> allowedImages) {
        public LaneDefaults {
            command = List.copyOf(command);
            if (command.isEmpty()) {
                throw new IllegalArgumentException("the lane command must not be empty");
            }
            Set<String> allowed = new TreeSet<>(allowedImages);
            allowed.removeIf(String::isBlank);
            allowed.add(image);
            allowedImages = Set.copyOf(allowed);
        }

        /** Lanes from the default image only. */
        public LaneDefaults(String image, String imagePullPolicy, List<String> command, ResourceAmounts requests,
                            ResourceAmounts limits, String serviceAccountName, long runAsUser) {
            this(image, imagePullPolicy, command, requests, limits, serviceAccountName, runAsUser, Set.of());
        }
    }

    /** The BACKFILL_* timing variables the operator was started with; lanes get the same so both sides agree. */
    public static Map<String, String> timingEnvironment(Map<String, String> env) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        for (String name : List.of("BACKFILL_LEASE_TTL_SECONDS", "BACKFILL_LEASE_RENEW_SECONDS", "BACKFILL_DRAIN_SECONDS",
                "BACKFILL_LOCK_TIMEOUT_SECONDS")) {
            String v = env.get(name);
            if (v != null && !v.isBlank()) {
                out.put(name, v.trim());
            }
        }
        return out;
    }
}

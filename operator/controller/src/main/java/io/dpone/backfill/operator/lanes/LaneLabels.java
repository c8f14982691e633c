package io.dpone.backfill.operator.lanes;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.Map;
import java.util.OptionalInt;

/** Labels that tie a lane pod to its campaign, run key, lane index and attempt; the only way the operator finds its pods. */
public final class LaneLabels {
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY_VALUE = "backfill-operator";
    public static final String NAME = "app.kubernetes.io/name";
    public static final String NAME_VALUE = "backfill-lane";
    public static final String CAMPAIGN = "backfill.dpone.io/campaign";
    public static final String RUN_KEY = "backfill.dpone.io/run-key";
    public static final String LANE = "backfill.dpone.io/lane";
    public static final String ATTEMPT = "backfill.dpone.io/attempt";
    /** Selects every lane pod this operator manages (the pod informer's label selector). */
    public static final String SELECTOR = MANAGED_BY + "=" + MANAGED_BY_VALUE + "," + NAME + "=" + NAME_VALUE;

    private LaneLabels() {
    }

    public static Map<String, String> of(String campaign, String runKey, int lane, int attempt) {
        return Map.of(MANAGED_BY, MANAGED_BY_VALUE, NAME, NAME_VALUE, CAMPAIGN, campaign, RUN_KEY, runKey,
                LANE, Integer.toString(lane), ATTEMPT, Integer.toString(attempt));
    }

    public static String podName(String campaign, int lane, int attempt) {
        return campaign + "-lane-" + lane + "-" + attempt;
    }

    static OptionalInt intLabel(Pod pod, String key) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        String v = labels == null ? null : labels.get(key);
        if (v == null) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(v));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    static String label(Pod pod, String key) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }
}

package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.api.model.Event;

/** One Event of the campaign, as kubectl describe shows it: when, type, reason, message. */
public record EventLine(String at, String type, String reason, String message) {
    static EventLine of(Event e) {
        String at = e.getLastTimestamp() != null ? e.getLastTimestamp()
                : e.getEventTime() != null && e.getEventTime().getTime() != null ? e.getEventTime().getTime()
                : e.getMetadata().getCreationTimestamp();
        return new EventLine(at == null ? "" : at, e.getType(), e.getReason(), e.getMessage() == null ? "" : e.getMessage());
    }
}

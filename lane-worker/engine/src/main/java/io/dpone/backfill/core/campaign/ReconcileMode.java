package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Whether the drivers run reconciliation passes (issue 38, ADR 0057) between publication and the handoff:
 * {@code none} (the default; not {@code off}, which YAML 1.1 readers, kubectl's among them, turn into false) hands
 * off at the load's anchor; {@code once} runs one pass; {@code until} runs passes
 * until one changed few enough rows, a deadline passed, or the pass limit was reached.
 */
public enum ReconcileMode {
    @JsonProperty("none") NONE,
    @JsonProperty("once") ONCE,
    @JsonProperty("until") UNTIL;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

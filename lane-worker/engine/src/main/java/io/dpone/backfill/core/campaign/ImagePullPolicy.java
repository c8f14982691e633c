package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Kubernetes image pull policy for lane pods, kept as a plain enum so core stays free of Kubernetes types. */
public enum ImagePullPolicy {
    @JsonProperty("Always") ALWAYS,
    @JsonProperty("IfNotPresent") IF_NOT_PRESENT,
    @JsonProperty("Never") NEVER
}

package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What happens to a failed chunk: retried (never a committed one) within the attempt budget, or not at all. */
public enum RetryPolicy {
    @JsonProperty("non_committed") NON_COMMITTED,
    @JsonProperty("none") NONE
}

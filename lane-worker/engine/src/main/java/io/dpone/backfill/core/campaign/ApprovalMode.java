package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Who decides when a validated campaign swaps (issue 28): the engine at once ({@code automatic}, the default) or a
 * person ({@code manual}: {@code backfill publish}, {@code kubectl backfill publish} or the approve annotation).
 */
public enum ApprovalMode {
    @JsonProperty("automatic") AUTOMATIC,
    @JsonProperty("manual") MANUAL;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

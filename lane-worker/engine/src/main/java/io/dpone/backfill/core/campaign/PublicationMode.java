package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/** direct appends to the live target; shadow_swap loads a campaign-owned shadow and swaps it in atomically. */
public enum PublicationMode {
    @JsonProperty("direct") DIRECT,
    @JsonProperty("shadow_swap") SHADOW_SWAP;

    public String wireName() {
        return this == DIRECT ? "direct" : "shadow_swap";
    }
}

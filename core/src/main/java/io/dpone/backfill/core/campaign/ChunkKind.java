package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How the chunk column's domain is split into ranges. */
public enum ChunkKind {
    /** The full unsigned 128-bit UUID space, split into equal ranges. */
    @JsonProperty("uuid") UUID,
    /** Planned integer bounds, with open-ended first and last buckets. */
    @JsonProperty("integer") INTEGER;

    public String wireName() {
        return this == UUID ? "uuid" : "integer";
    }
}

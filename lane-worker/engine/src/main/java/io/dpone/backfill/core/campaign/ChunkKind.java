package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How the source is split into chunks: ranges of a key column, or ranges of the heap's blocks. */
public enum ChunkKind {
    /** The full unsigned 128-bit UUID space, split into equal ranges. */
    @JsonProperty("uuid") UUID,
    /** Planned integer bounds, with open-ended first and last buckets. */
    @JsonProperty("integer") INTEGER,
    /**
     * Block ranges of the source heap, planned at preparation from the table's size; the last is open-ended. Loads
     * only tuple versions older than the XMin anchor (ADR 0015), so it needs no chunk column.
     */
    @JsonProperty("physical") PHYSICAL;

    public String wireName() {
        return switch (this) {
            case UUID -> "uuid";
            case INTEGER -> "integer";
            case PHYSICAL -> "physical";
        };
    }

    /** True for the kinds that cut ranges of {@code chunk.column}. */
    public boolean keyed() {
        return this != PHYSICAL;
    }
}

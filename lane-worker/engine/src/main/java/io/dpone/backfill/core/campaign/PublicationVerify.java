package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What publication checks beyond exact counts. {@code content} (the default): the stored rows' content digests must
 * equal what the lanes sent (ADR 0036). {@code counts}: the counts, NULL and duplicate keys only.
 */
public enum PublicationVerify {
    @JsonProperty("content") CONTENT,
    @JsonProperty("counts") COUNTS;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

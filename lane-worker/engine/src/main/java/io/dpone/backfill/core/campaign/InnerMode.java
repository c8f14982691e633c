package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The inner write mode of the reference manifest. Only {@link #INCREMENTAL_APPEND} is an initial load;
 * the others belong to incremental pipelines and are rejected by validation with a reason.
 */
public enum InnerMode {
    @JsonProperty("incremental_append") INCREMENTAL_APPEND,
    @JsonProperty("incremental_merge") INCREMENTAL_MERGE,
    @JsonProperty("replace") REPLACE,
    @JsonProperty("partition_replace") PARTITION_REPLACE;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

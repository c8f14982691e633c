package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The only source this release reads from. */
public enum SourceType {
    @JsonProperty("postgres") POSTGRES
}

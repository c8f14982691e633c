package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/** stable: one shadow/backup name per target; campaign: names carry a digest of backfillId so generations coexist. */
public enum ArtifactScope {
    @JsonProperty("stable") STABLE,
    @JsonProperty("campaign") CAMPAIGN
}

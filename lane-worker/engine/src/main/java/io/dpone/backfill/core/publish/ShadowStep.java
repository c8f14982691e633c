package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.naming.ArtifactNames;

/** A target's idempotent work on one campaign's shadow: creating it, or building its deferred indexes. */
@FunctionalInterface
public interface ShadowStep {
    void apply(String runKey, ArtifactNames names, String liveTable);
}

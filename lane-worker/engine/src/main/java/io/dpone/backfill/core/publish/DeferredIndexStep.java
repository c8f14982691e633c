package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.naming.ArtifactNames;

import java.util.Set;

/**
 * Builds the shadow's deferred indexes and constraints (see {@link ShadowPublisher#buildDeferredIndexes}). Foreign
 * keys that reference a table of {@code validatedAtSwap} (another member of the campaign's publication group, whose
 * shadow may not be loaded yet) are created unvalidated; the group's swap validates them against that member's
 * shadow ({@link SwapSteps#validateDeferredKeys}).
 */
@FunctionalInterface
public interface DeferredIndexStep {
    void apply(String runKey, ArtifactNames names, String liveTable, Set<String> validatedAtSwap);
}

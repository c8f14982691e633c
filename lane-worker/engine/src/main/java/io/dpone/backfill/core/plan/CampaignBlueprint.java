package io.dpone.backfill.core.plan;

import io.dpone.backfill.core.campaign.CampaignDefinition;
import io.dpone.backfill.core.campaign.PublicationMode;
import io.dpone.backfill.core.naming.ArtifactNames;

/** Everything derived from a validated campaign without I/O: plan, identity and artifact names. */
public record CampaignBlueprint(CampaignDefinition definition, ChunkPlan plan, CampaignIdentity identity,
                                ArtifactNames artifacts) {
    public static CampaignBlueprint of(CampaignDefinition definition) {
        ChunkPlan plan = ChunkPlanner.plan(definition.spec().getChunk());
        return new CampaignBlueprint(definition, plan, CampaignIdentity.of(definition.spec(), plan),
                ArtifactNames.derive(definition.spec()));
    }

    /** Where lanes write, in the target's schema: the shadow with shadow_swap, the live table with direct. */
    public String loadTable() {
        return definition.spec().getPublication().getMode() == PublicationMode.SHADOW_SWAP
                ? artifacts.shadowTable() : definition.spec().getTarget().getTable();
    }
}

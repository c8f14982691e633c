package io.dpone.backfill.core.campaign;

/** A validated campaign: its name and its normalised spec (defaults filled in). */
public record CampaignDefinition(String name, String namespace, BackfillCampaignSpec spec) {
}

package io.dpone.backfill.core.ledger;

/** The campaign lease held by whoever drives the engine; the epoch fences phase changes and publication. */
public record CampaignLease(String runKey, String owner, long epoch) {
}

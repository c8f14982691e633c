package io.dpone.backfill.core.ledger;

import io.dpone.backfill.core.campaign.CampaignPhase;

import java.time.Instant;

/** The campaign row of the ledger. {@code detail} is a small JSON document with the phase's evidence. */
public record CampaignRecord(String runKey, String backfillId, String planDigest, String configDigest,
                             String specJson, CampaignPhase phase, String detail, String anchorXmin,
                             String sourceShapeDigest, String targetShapeDigest,
                             String leaseOwner, long leaseEpoch, Instant leaseExpires, boolean stopRequested,
                             Instant createdAt, Instant updatedAt) {
}

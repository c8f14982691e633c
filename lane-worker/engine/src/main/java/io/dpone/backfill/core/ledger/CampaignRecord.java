package io.dpone.backfill.core.ledger;

import io.dpone.backfill.core.campaign.CampaignPhase;

import java.time.Instant;

/**
 * The campaign row of the ledger. {@code detail} is a small JSON document with the phase's evidence;
 * {@code liveBaseline} the reviewed live target as preparation found it ({@link
 * io.dpone.backfill.core.publish.LiveTargetBaseline} JSON), null before preparation; {@code rowEncoding} how lanes
 * move rows ({@link io.dpone.backfill.core.encoding.RowEncoding#wireName()}), chosen at preparation, null before it
 * (and in ledgers prepared before ADR 0017).
 */
public record CampaignRecord(String runKey, String backfillId, String planDigest, String configDigest,
                             String specJson, CampaignPhase phase, String detail, String anchorXmin,
                             String sourceShapeDigest, String targetShapeDigest, String liveBaseline, String rowEncoding,
                             String leaseOwner, long leaseEpoch, Instant leaseExpires, boolean stopRequested,
                             Instant createdAt, Instant updatedAt) {
}

package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.ledger.CampaignLease;

/** A session and the lease its claim took: what every step is fenced by. A reconnect replaces both together. */
public record HeldCampaign(DriverSession session, CampaignLease lease) {
}

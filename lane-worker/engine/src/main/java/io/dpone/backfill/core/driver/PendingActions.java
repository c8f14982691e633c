package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.ledger.CampaignLease;

/**
 * What a person asked of this drive, carried out once the lease is held and before any step: the CLI's
 * {@code resume}, the operator's re-queue and approval annotations (ADR 0007, 0040).
 */
@FunctionalInterface
public interface PendingActions {
    PendingActions NONE = (engine, lease) -> {
    };

    void carryOut(CampaignEngine engine, CampaignLease lease);
}

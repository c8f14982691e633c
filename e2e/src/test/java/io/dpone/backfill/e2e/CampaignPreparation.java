package io.dpone.backfill.e2e;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.wiring.CampaignSession;

/** Takes a campaign from nothing to Loading in the test's JVM, then lets go of the lease for the next driver. */
final class CampaignPreparation {
    private CampaignPreparation() {
    }

    static void toLoading(CampaignSession s, CampaignBlueprint blueprint, EngineTimings timings) {
        s.engine().open(s.preflight(blueprint, null));
        CampaignLease lease = s.ledger().acquireLease(blueprint.identity().runKey(), "e2e-prep", timings.leaseTtl()).orElseThrow();
        for (int i = 0; s.engine().step(lease).phase() != CampaignPhase.Loading; i++) {
            if (i == 20) {
                throw new AssertionError("campaign did not reach Loading");
            }
        }
        s.ledger().releaseLease(lease);
    }
}

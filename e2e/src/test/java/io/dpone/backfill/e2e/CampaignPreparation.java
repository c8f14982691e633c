package io.dpone.backfill.e2e;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.wiring.CampaignRuntime;

import java.time.Duration;

/** Takes a campaign from nothing to Loading in the test's JVM, then lets go of the lease for the next driver. */
final class CampaignPreparation {
    private static final Duration PREPARATION_LEASE = Duration.ofSeconds(60);

    private CampaignPreparation() {
    }

    static void toLoading(CampaignRuntime s, CampaignBlueprint blueprint, EngineTimings timings) {
        s.engine().open(s.preflight(blueprint, null));
        // The suites' short leases are for the processes that come after (takeovers within seconds). This driver
        // renews nothing between its steps and releases its lease at the end, so it takes one long enough for a
        // loaded machine: plan and preparation on Babelfish took over 3 s there.
        Duration ttl = timings.leaseTtl().compareTo(PREPARATION_LEASE) > 0 ? timings.leaseTtl() : PREPARATION_LEASE;
        CampaignLease lease = s.ledger().acquireLease(blueprint.identity().runKey(), "e2e-prep", ttl).orElseThrow();
        for (int i = 0; s.engine().step(lease).phase() != CampaignPhase.Loading; i++) {
            if (i == 20) {
                throw new AssertionError("campaign did not reach Loading");
            }
        }
        s.ledger().releaseLease(lease);
    }
}

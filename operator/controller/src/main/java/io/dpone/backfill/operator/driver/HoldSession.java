package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.driver.DriverSession;
import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.source.SourceLoadProbe;

import java.time.Duration;

/**
 * One pass over the operator's kept {@link CampaignHold}, as the driver loop sees it: an engine built for this pass's
 * blueprint, claims through the hold (which then renews the lease from the {@link LeaseKeeper}).
 */
final class HoldSession implements DriverSession {
    private final CampaignHold hold;
    private final CampaignEngine engine;
    private final CampaignBlueprint blueprint;
    private final String skipPreflightBy;
    private final String owner;
    private final Duration leaseTtl;

    HoldSession(CampaignHold hold, CampaignBlueprint blueprint, String skipPreflightBy, String owner, Duration leaseTtl) {
        this.hold = hold;
        this.engine = hold.engine(blueprint);
        this.blueprint = blueprint;
        this.skipPreflightBy = skipPreflightBy;
        this.owner = owner;
        this.leaseTtl = leaseTtl;
    }

    @Override
    public CampaignEngine engine() {
        return engine;
    }

    @Override
    public LedgerStore ledger() {
        return hold.ledger();
    }

    @Override
    public Preflight preflight() {
        return hold.runtime().preflight(blueprint, skipPreflightBy);
    }

    @Override
    public SourceLoadProbe sourceLoad() {
        return hold.runtime().sourceLoad();
    }

    @Override
    public CampaignClaim claim() {
        return hold.acquire(owner, leaseTtl);
    }

    /** The lease keeper found the lease renewed by another driver, or the hold holds none (yet). */
    @Override
    public boolean leaseLost() {
        return !hold.holdsLease();
    }
}

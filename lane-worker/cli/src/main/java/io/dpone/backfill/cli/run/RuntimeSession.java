package io.dpone.backfill.cli.run;

import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.driver.DriverSession;
import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.source.SourceLoadProbe;
import io.dpone.backfill.wiring.CampaignRuntime;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** One connection session of the CLI's driver, as the driver loop sees it; a reconnect makes a new one. */
record RuntimeSession(CampaignRuntime runtime, CampaignBlueprint blueprint, String skipPreflightBy, String owner,
                      Duration leaseTtl, BooleanSupplier lost) implements DriverSession {
    @Override
    public CampaignEngine engine() {
        return runtime.engine();
    }

    @Override
    public LedgerStore ledger() {
        return runtime.ledger();
    }

    @Override
    public Preflight preflight() {
        return runtime.preflight(blueprint, skipPreflightBy);
    }

    @Override
    public SourceLoadProbe sourceLoad() {
        return runtime.sourceLoad();
    }

    @Override
    public CampaignClaim claim() {
        return runtime.ledger().claimCampaign(runtime.engine().runKey(), owner, leaseTtl);
    }

    @Override
    public boolean leaseLost() {
        return lost.getAsBoolean();
    }
}

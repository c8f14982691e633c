package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.doctor.DoctorReport;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.source.SourceLoad;
import io.dpone.backfill.core.source.SourceLoadProbe;

import java.time.Duration;
import java.util.List;

/** A driver session over the in-memory ledger: claims as the real ledger does, a quiet source, a pre-flight as told. */
class FakeSession implements DriverSession {
    private final CampaignEngine engine;
    private final LedgerStore ledger;
    private final String owner;
    Preflight preflight = Preflight.checkedBy(() -> new DoctorReport(List.of(Finding.ok("all.ok", "fine"))));
    boolean leaseLost;
    int claims;

    FakeSession(CampaignEngine engine, LedgerStore ledger, String owner) {
        this.engine = engine;
        this.ledger = ledger;
        this.owner = owner;
    }

    static Preflight refusing() {
        return Preflight.checkedBy(() -> new DoctorReport(List.of(Finding.error("table.missing", "no such table", "create it"))));
    }

    @Override
    public CampaignEngine engine() {
        return engine;
    }

    @Override
    public LedgerStore ledger() {
        return ledger;
    }

    @Override
    public Preflight preflight() {
        return preflight;
    }

    @Override
    public SourceLoadProbe sourceLoad() {
        return () -> new SourceLoad(0.0, 0);
    }

    @Override
    public CampaignClaim claim() {
        claims++;
        return ledger.claimCampaign(engine.runKey(), owner, Duration.ofSeconds(30));
    }

    @Override
    public boolean leaseLost() {
        return leaseLost;
    }
}

package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.source.SourceLoadProbe;

/**
 * What a host holds for one campaign while the {@link DriverLoop} drives it: the connections' engine, ledger and
 * source probe, the pre-flight a start is gated by, the claim on the campaign's driver lock (ADR 0016), and whether
 * the host's lease keeper still holds the lease. The CLI builds one per connection session; the operator one per
 * pass over its kept hold (its engine is rebuilt each pass, so a changed {@code suspend} takes effect at once).
 */
public interface DriverSession {
    /** The same engine for the whole session: it remembers the pre-flight verdict {@code open} gave it. */
    CampaignEngine engine();

    LedgerStore ledger();

    /** How a start is gated: checked by the doctor, or skipped by an expert (the reason recorded). */
    Preflight preflight();

    /** Reads the source's load for the claim gate (ADR 0042): one probe a campaign, never one a lane. */
    SourceLoadProbe sourceLoad();

    /** Claims the campaign once on this session's state connection: taken (with its lease) or held by another driver. */
    CampaignClaim claim();

    /** True once the host's lease renewal found another driver holding the campaign: nothing more is stepped. */
    boolean leaseLost();
}

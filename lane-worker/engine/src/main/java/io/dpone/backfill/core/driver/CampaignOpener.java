package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.ledger.CampaignClaim;

import java.time.Duration;
import java.util.Optional;

/**
 * How a driver gets a campaign to drive (ADR 0007, 0016): opened on a session's engine, gated by pre-flight while it
 * was never prepared, then claimed. A session opened again after a lost connection must get the campaign back or
 * stop: its engine has not seen pre-flight, and another driver may have taken the campaign meanwhile.
 */
public final class CampaignOpener {
    private final StatusSink status;

    public CampaignOpener(StatusSink status) {
        this.status = status;
    }

    /** The refusing pre-flight verdict, nothing created (no ledger, lock, shadow or lane); empty when open. */
    public Optional<PreflightResult> open(DriverSession session) {
        Preflight preflight = session.preflight();
        if (preflight.isSkipped()) {
            status.preflightSkipped(preflight.skipReason());
        }
        try {
            session.engine().open(preflight);
            return Optional.empty();
        } catch (PreflightRefusedException e) {
            return Optional.of(e.result());
        }
    }

    /** Claims the campaign, waiting up to {@code wait} for another driver's live session to let go of it. */
    public CampaignClaim claim(DriverSession session, Duration wait) throws InterruptedException {
        return new ClaimWait(status).claim(session::claim, wait);
    }

    /**
     * Opens and claims {@code fresh} after a reconnect, within {@code wait}: the campaign taken back under a new
     * epoch, or a refusal or another driver's hold thrown, stopping the drive without further changes.
     */
    public HeldCampaign reopen(DriverSession fresh, Duration wait) throws InterruptedException {
        Optional<PreflightResult> refused = open(fresh);
        if (refused.isPresent()) {
            throw new PreflightRefusedException(refused.get());
        }
        CampaignClaim claim = claim(fresh, wait);
        if (claim instanceof CampaignClaim.Held held) {
            throw new LeaseLostException("after reconnecting, the campaign is held by " + held.summary()
                    + "; stopping without further changes");
        }
        return new HeldCampaign(fresh, ((CampaignClaim.Taken) claim).lease());
    }
}

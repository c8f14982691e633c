package io.dpone.backfill.cli.run;

import io.dpone.backfill.core.driver.ClaimWait;
import io.dpone.backfill.core.ledger.CampaignClaim;

import java.time.Duration;
import java.util.function.Consumer;

/** What a CLI command says while it claims a campaign (ADR 0016): `run`, `resume` and `rollback` say it alike. */
final class ClaimLines implements ClaimWait.Listener {
    private final Consumer<String> log;

    ClaimLines(Consumer<String> log) {
        this.log = log;
    }

    @Override
    public void waitingForDriver(CampaignClaim.Held held, Duration left) {
        log.accept("waiting for the driver that holds the campaign: " + held.summary() + "; its database session is"
                + " still open; " + Math.max(1, left.toSeconds()) + " s left (--wait-for-driver)");
    }

    @Override
    public void tookOver(CampaignClaim.Taken taken) {
        log.accept("took the campaign over from " + taken.tookOverFrom() + " at once: its database session is gone"
                + " (epoch " + taken.lease().epoch() + " fences everything it might still write)");
    }
}

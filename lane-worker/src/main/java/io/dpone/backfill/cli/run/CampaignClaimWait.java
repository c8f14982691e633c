package io.dpone.backfill.cli.run;

import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.LedgerStore;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Claims the campaign for a driver (ADR 0016): at once when the campaign's driver lock is free, taking over a dead
 * driver's lease; while another session holds the lock, asks again every second up to a bound, printing who holds it
 * and how long this driver still waits. It never takes over a held lock, whatever the lease row says.
 */
public final class CampaignClaimWait {
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Duration REPORT_EVERY = Duration.ofSeconds(5);

    private final LedgerStore ledger;
    private final Duration bound;
    private final Consumer<String> log;

    CampaignClaimWait(LedgerStore ledger, Duration bound, Consumer<String> log) {
        this.ledger = ledger;
        this.bound = bound;
        this.log = log;
    }

    /** The campaign taken, or the holder as last seen when the bound ran out. */
    CampaignClaim claim(String runKey, String owner, Duration ttl) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        long nextReport = System.nanoTime();
        while (true) {
            CampaignClaim claim = ledger.claimCampaign(runKey, owner, ttl);
            if (claim instanceof CampaignClaim.Taken taken) {
                if (taken.tookOverFrom() != null) {
                    log.accept("took the campaign over from " + taken.tookOverFrom() + " at once: its database session is gone"
                            + " (epoch " + taken.lease().epoch() + " fences everything it might still write)");
                }
                return taken;
            }
            CampaignClaim.Held held = (CampaignClaim.Held) claim;
            long now = System.nanoTime();
            long left = deadline - now;
            if (left <= 0) {
                return held;
            }
            if (now - nextReport >= 0) {
                log.accept("waiting for the driver that holds the campaign: " + held.summary() + "; its database session is"
                        + " still open; " + Math.max(1, Duration.ofNanos(left).toSeconds()) + " s left (--wait-for-driver)");
                nextReport = now + REPORT_EVERY.toNanos();
            }
            Thread.sleep(Math.min(POLL.toMillis(), Math.max(1, Duration.ofNanos(left).toMillis())));
        }
    }
}

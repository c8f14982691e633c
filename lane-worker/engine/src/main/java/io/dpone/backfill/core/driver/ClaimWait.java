package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.ledger.CampaignClaim;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Claims the campaign for a driver (ADR 0016): at once when the campaign's driver lock is free, taking over a dead
 * driver's lease; while another session holds the lock, asks again every second up to a bound, saying every few
 * seconds who holds it and how long this driver still waits. It never takes over a held lock, whatever the lease
 * row says. The operator's bound is zero: one claim a pass, and the next pass asks again. Drivers and
 * {@code backfill rollback} claim through it.
 */
public final class ClaimWait {
    /** What a claim says while it waits, and when it took a campaign over. */
    public interface Listener {
        /** Another driver's live session holds the campaign; this driver asks again for {@code left} more. */
        void waitingForDriver(CampaignClaim.Held held, Duration left);

        /** The campaign was taken over from a driver whose session is gone ({@code taken.tookOverFrom()}). */
        void tookOver(CampaignClaim.Taken taken);
    }

    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Duration REPORT_EVERY = Duration.ofSeconds(5);

    private final Listener status;

    public ClaimWait(Listener status) {
        this.status = status;
    }

    /**
     * The campaign taken, or the holder as last seen when {@code bound} ran out. {@code claimOnce} claims the
     * campaign's driver lock and lease once, on the claimer's state connection.
     */
    public CampaignClaim claim(Supplier<CampaignClaim> claimOnce, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        long nextReport = System.nanoTime();
        while (true) {
            CampaignClaim claim = claimOnce.get();
            if (claim instanceof CampaignClaim.Taken taken) {
                if (taken.tookOverFrom() != null) {
                    status.tookOver(taken);
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
                status.waitingForDriver(held, Duration.ofNanos(left));
                nextReport = now + REPORT_EVERY.toNanos();
            }
            Thread.sleep(Math.min(POLL.toMillis(), Math.max(1, Duration.ofNanos(left).toMillis())));
        }
    }
}

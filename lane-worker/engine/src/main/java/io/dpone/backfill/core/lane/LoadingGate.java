package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.LedgerStore;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Holds a lane that started while its campaign was still being prepared, so its process start overlapped
 * preparation (issue 11), until the campaign reaches Loading. A lane reads its plan, its load table and how rows
 * travel from what preparation recorded, so it must not build its session before.
 */
public final class LoadingGate {
    static final Duration POLL = Duration.ofMillis(250);

    private final LedgerStore ledger;
    private final String runKey;
    private final Consumer<String> log;

    public LoadingGate(LedgerStore ledger, String runKey, Consumer<String> log) {
        this.ledger = ledger;
        this.runKey = runKey;
        this.log = log;
    }

    /**
     * Returns true once the campaign is past preparation (Loading, or any later phase, or a stop was requested:
     * the worker then decides what that means); false when {@code supervised} turned false while waiting.
     */
    public boolean await(BooleanSupplier supervised) throws InterruptedException {
        boolean said = false;
        while (true) {
            CampaignRecord campaign = ledger.findByRunKey(runKey)
                    .orElseThrow(() -> new IllegalStateException("campaign " + runKey + " is not in the ledger"));
            if (!campaign.phase().preparing() || campaign.stopRequested()) {
                if (said) {
                    log.accept("campaign is " + campaign.phase() + ": starting");
                }
                return true;
            }
            if (!supervised.getAsBoolean()) {
                log.accept("the driver that started this lane is gone while the campaign was " + campaign.phase());
                return false;
            }
            if (!said) {
                log.accept("campaign is " + campaign.phase() + ": waiting for preparation to finish");
                said = true;
            }
            Thread.sleep(POLL.toMillis());
        }
    }
}

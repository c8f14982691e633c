package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.ClaimGate;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.ThrottleSetting;

/**
 * Where the loop's news goes: the CLI prints lines and a progress line, the operator turns them into events and its
 * status. Facts only: each host says them in its own terms (its commands, its annotations).
 */
public interface StatusSink extends ClaimWait.Listener {
    /** An expert started the campaign without pre-flight; the evidence records {@code reason}. */
    void preflightSkipped(String reason);

    /** The spec's throttle differed from the ledger's and is now in force (ADR 0042). */
    void throttleRecorded(ThrottleSetting setting);

    /** {@code lanes} lanes were started while the campaign is still {@code phase}; they wait for Loading (ADR 0023). */
    void lanesStartedEarly(int lanes, CampaignPhase phase);

    /** The load windows or the source guard paused claims, or let them resume. */
    void claimGateChanged(ClaimGate.Change change);

    /** One engine step, in order, every one (a pass's phase transitions become its events). */
    void stepped(StepResult step);
}

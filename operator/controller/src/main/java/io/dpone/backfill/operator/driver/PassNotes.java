package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.driver.StatusSink;
import io.dpone.backfill.core.engine.ClaimGate;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.ThrottleSetting;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one pass has to tell: every step (one event per phase transition) and the notes that become events. The
 * status itself is projected from the ledger once the pass is done; the lane report says what the pods did.
 */
final class PassNotes implements StatusSink {
    private final List<StepResult> steps = new ArrayList<>();
    private final List<DriveOutcome.Note> notes = new ArrayList<>();

    void add(String reason, String message, boolean warning) {
        notes.add(new DriveOutcome.Note(reason, message, warning));
    }

    List<StepResult> steps() {
        return steps;
    }

    List<DriveOutcome.Note> notes() {
        return notes;
    }

    /** The step the pass ended on. */
    StepResult last() {
        return steps.get(steps.size() - 1);
    }

    /** The status shows a skipped pre-flight from the ledger's evidence; no event of its own. */
    @Override
    public void preflightSkipped(String reason) {
    }

    /** An operator never waits within a pass for another driver: the claim is asked once, then the pass waits. */
    @Override
    public void waitingForDriver(CampaignClaim.Held held, Duration left) {
    }

    @Override
    public void tookOver(CampaignClaim.Taken taken) {
        add("CampaignTakenOver", "took the campaign over from " + taken.tookOverFrom() + " at once: its database session"
                + " is gone; lease epoch " + taken.lease().epoch() + " fences anything it still writes", false);
    }

    @Override
    public void throttleRecorded(ThrottleSetting setting) {
        add("ThrottleChanged", "rate ceiling now " + setting.describe(), false);
    }

    /** The lane report shows the pods created; the status shows them waiting for Loading. */
    @Override
    public void lanesStartedEarly(int lanes, CampaignPhase phase) {
    }

    @Override
    public void claimGateChanged(ClaimGate.Change change) {
        if (change.paused()) {
            add("ClaimsPaused", change.pause().reason() + ": no new chunk claims: " + change.pause().message(), true);
        } else {
            add("ClaimsResumed", "the lanes claim chunks again", false);
        }
    }

    @Override
    public void stepped(StepResult step) {
        steps.add(step);
    }
}

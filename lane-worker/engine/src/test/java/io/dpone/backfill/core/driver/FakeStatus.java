package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.ClaimGate;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.ThrottleSetting;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Every piece of news the loop gives, one line each, in order. */
final class FakeStatus implements StatusSink {
    final List<String> said = new ArrayList<>();
    final List<StepResult> steps = new ArrayList<>();

    @Override
    public void preflightSkipped(String reason) {
        said.add("pre-flight skipped: " + reason);
    }

    @Override
    public void waitingForDriver(CampaignClaim.Held held, Duration left) {
        said.add("waiting for " + held.owner());
    }

    @Override
    public void tookOver(CampaignClaim.Taken taken) {
        said.add("took over from " + taken.tookOverFrom() + " with epoch " + taken.lease().epoch());
    }

    @Override
    public void throttleRecorded(ThrottleSetting setting) {
        said.add("throttle " + setting.describe());
    }

    @Override
    public void lanesStartedEarly(int lanes, CampaignPhase phase) {
        said.add(lanes + " lanes started early while " + phase);
    }

    @Override
    public void claimGateChanged(ClaimGate.Change change) {
        said.add(change.paused() ? "claims paused: " + change.pause().reason() : "claims resumed");
    }

    @Override
    public void stepped(StepResult step) {
        steps.add(step);
        said.add("step " + step.phase());
    }

    List<CampaignPhase> phases() {
        return steps.stream().map(StepResult::phase).toList();
    }
}

package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.status.ProgressDisplay;
import io.dpone.backfill.cli.status.NextActionText;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.driver.StatusSink;
import io.dpone.backfill.core.engine.ClaimGate;
import io.dpone.backfill.core.engine.NextAction;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.ThrottleSetting;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** What `backfill run` tells its user: log lines in the CLI's terms, and the progress line after every step. */
final class TerminalStatus implements StatusSink {
    private final ProgressDisplay progress;
    private final Consumer<String> log;
    private final ClaimLines claims;
    private final Supplier<BackfillCampaignStatus> ledgerStatus;
    /** The last publication-window or approval wait told to the user, so each is said once. */
    private String lastWait = "";

    TerminalStatus(ProgressDisplay progress, Consumer<String> log, Supplier<BackfillCampaignStatus> ledgerStatus) {
        this.progress = progress;
        this.log = log;
        this.claims = new ClaimLines(log);
        this.ledgerStatus = ledgerStatus;
    }

    @Override
    public void preflightSkipped(String reason) {
        log.accept("pre-flight skipped (" + reason + "): the evidence records it");
    }

    @Override
    public void waitingForDriver(CampaignClaim.Held held, Duration left) {
        claims.waitingForDriver(held, left);
    }

    @Override
    public void tookOver(CampaignClaim.Taken taken) {
        claims.tookOver(taken);
    }

    @Override
    public void throttleRecorded(ThrottleSetting setting) {
        log.accept("rate ceiling: " + setting.describe());
    }

    @Override
    public void lanesStartedEarly(int lanes, CampaignPhase phase) {
        log.accept(lanes + " lane(s) started while the campaign is " + phase + "; they wait for Loading");
    }

    @Override
    public void claimGateChanged(ClaimGate.Change change) {
        log.accept(change.paused() ? "claims paused (" + change.pause().reason() + "): " + change.pause().message()
                : "claims resume: the lanes claim chunks again");
    }

    @Override
    public void stepped(StepResult step) {
        progress.update(ledgerStatus.get());
        if (step.phase() == io.dpone.backfill.core.campaign.CampaignPhase.Reconciling) {
            log.accept(step.message()); // one line a pass (ADR 0057); its ranges' lines came from the pass itself
        }
        if ((step.next() instanceof NextAction.AwaitWindow || step.next() instanceof NextAction.AwaitApproval)
                && !step.message().equals(lastWait)) {
            // Said once per wait: the progress line alone would show a campaign stuck in Publishing.
            log.accept(step.message() + "; " + NextActionText.of(step.next()));
            lastWait = step.message();
        }
    }
}

package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.ClaimGate;
import io.dpone.backfill.core.engine.EngineAction;
import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.ThrottleRecorder;

import java.io.IOException;
import java.time.Clock;
import java.util.Optional;

/**
 * The driver protocol of ADR 0007, written once for both hosts (ADR 0050): once a {@link CampaignOpener} opened and
 * claimed the campaign, carry out what a person asked, record the throttle, start lanes early, then rounds of steps,
 * each followed by the lane actions of the step it ended on (with the failure budget's verdict), the claim gate and
 * the status. It decides no phase: every decision about the campaign is the engine's. What differs between the
 * CLI and the operator is behind its ports: the {@link LaneFleet}, the {@link StatusSink}, how a failed round
 * heals ({@link Healing}) and how a pass ends ({@link PassEnd}).
 */
public final class DriverLoop {
    /** Steps that ask to go on at once run back to back, up to this many in a round (a bound, not a budget). */
    static final int STEPS_AT_ONCE = 16;

    private final BackfillCampaignSpec spec;
    private final LaneFleet lanes;
    private final StatusSink status;
    private final Healing healing;
    private final PassEnd passEnd;
    private final Clock clock;

    /** {@code spec}: the normalised spec of this pass (the operator's may have changed {@code suspend} or the throttle). */
    public DriverLoop(BackfillCampaignSpec spec, LaneFleet lanes, StatusSink status, Healing healing, PassEnd passEnd,
                      Clock clock) {
        this.spec = spec;
        this.lanes = lanes;
        this.status = status;
        this.healing = healing;
        this.passEnd = passEnd;
        this.clock = clock;
    }

    /** Drives a claimed campaign until the pass ends; returns the step it ended on. */
    public StepResult drive(HeldCampaign held, PendingActions actions) throws Exception {
        DriverSession session = held.session();
        String runKey = session.engine().runKey();
        actions.carryOut(session.engine(), held.lease());
        // The one part of the spec lanes follow while they run: the ledger is how it reaches them (ADR 0042).
        ThrottleRecorder.apply(session.ledger(), runKey, spec).ifPresent(status::throttleRecorded);
        startLanesEarly(session, runKey);
        HeldCampaign current = held;
        while (true) {
            StepResult last;
            try {
                last = round(current);
            } catch (RuntimeException failure) {
                current = healing.heal(current, failure);
                continue;
            }
            healing.healed();
            if (!passEnd.stepAgain(last)) {
                return last;
            }
        }
    }

    /**
     * A campaign still to be prepared gets its lanes now (ADR 0023): each starts (a JVM, a pod) while the driver
     * prepares, then waits for Loading. Not for a suspended campaign, which parks before Loading; a spent failure
     * budget starts nothing here and is the loading step's to report.
     */
    private void startLanesEarly(DriverSession session, String runKey) throws IOException {
        if (Boolean.TRUE.equals(spec.getSuspend())) {
            return;
        }
        CampaignPhase phase = session.ledger().findByRunKey(runKey).map(CampaignRecord::phase).orElse(null);
        if (phase == null || !phase.preparing()) {
            return;
        }
        int count = lanesInForce(session.ledger(), runKey, spec.getParallelWorkers());
        if (lanes.keep(count).isEmpty()) {
            status.lanesStartedEarly(count, phase);
        }
    }

    /** Steps while the engine asks to go on at once, then carries out what the last step asks of lanes and claims. */
    private StepResult round(HeldCampaign held) throws IOException {
        StepResult step = step(held);
        for (int steps = 1; goesOnAtOnce(step) && steps < STEPS_AT_ONCE; steps++) {
            status.stepped(step);
            step = step(held);
        }
        step = carryOutLaneActions(held, step);
        if (step.phase() == CampaignPhase.Loading) {
            // One look at the windows and the source a round: lanes read the pause from the ledger before each claim.
            ClaimGate.apply(held.session().sourceLoad(), clock.instant(), held.session().ledger(),
                    held.session().engine().runKey(), spec).ifPresent(status::claimGateChanged);
        }
        status.stepped(step);
        return step;
    }

    private static StepResult step(HeldCampaign held) {
        if (held.session().leaseLost()) {
            throw new LeaseLostException("campaign lease lost: another driver took over; stopping without further changes");
        }
        return held.session().engine().step(held.lease());
    }

    /** A step with nothing for the lanes and no wait: the next one follows at once. */
    private static boolean goesOnAtOnce(StepResult step) {
        return !step.settled() && step.requeueAfter().isZero() && !step.wantsLanes() && !step.stopsLanes();
    }

    private StepResult carryOutLaneActions(HeldCampaign held, StepResult step) throws IOException {
        StepResult result = step;
        if (step.wantsLanes()) {
            LedgerStore ledger = held.session().ledger();
            int asked = step.actions().stream().filter(a -> a instanceof EngineAction.RunLanes)
                    .mapToInt(a -> ((EngineAction.RunLanes) a).lanes()).max().orElseThrow();
            Optional<LaneFleet.BudgetSpent> spent = lanes.keep(lanesInForce(ledger, held.session().engine().runKey(), asked));
            if (spent.isPresent()) {
                status.stepped(step);
                result = held.session().engine().lanesExhausted(held.lease(), spent.get().reason());
            }
        }
        if (result.stopsLanes()) {
            if (result.phase() == CampaignPhase.HandoffCommitted) {
                lanes.finish();
            } else {
                lanes.drain();
            }
        }
        return result;
    }

    /**
     * The lane count in force (ADR 0042) as the ledger holds it: the spec's, recorded when this drive began, or what
     * {@code backfill throttle --lanes} set since; never more than {@code asked}.
     */
    private static int lanesInForce(LedgerStore ledger, String runKey, int asked) {
        return Math.min(asked, ledger.throttle(runKey).lanes());
    }
}

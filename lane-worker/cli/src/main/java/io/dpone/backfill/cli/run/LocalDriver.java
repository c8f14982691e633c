package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.status.ProgressDisplay;
import io.dpone.backfill.cli.status.NextActionText;
import io.dpone.backfill.cli.local.LocalLaneLauncher;
import io.dpone.backfill.cli.plan.PreflightReport;
import io.dpone.backfill.cli.status.StatusReader;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.driver.CampaignOpener;
import io.dpone.backfill.core.driver.DriverLoop;
import io.dpone.backfill.core.driver.HeldCampaign;
import io.dpone.backfill.core.driver.PendingActions;
import io.dpone.backfill.core.driver.UntilSettled;
import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.engine.NextAction;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.heal.HealingTimings;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.lane.HostName;
import io.dpone.backfill.wiring.CampaignRuntime;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Hosts the driver loop ({@link DriverLoop}, ADR 0050) for `backfill run`: lanes as local process groups
 * ({@link ProcessLaneFleet}), news as log lines and a progress line ({@link TerminalStatus}), stepping until the
 * campaign settles ({@link UntilSettled}), healing within the run ({@link Reconnect}), the lease renewed from its
 * own thread ({@link DriverHold}). It re-implements no step of the protocol; what is its own is the exit code.
 */
public final class LocalDriver implements AutoCloseable {

    /** Opens the driver's connections; called again after each lost connection. */
    @FunctionalInterface
    interface SessionOpener {
        CampaignRuntime open() throws SQLException;
    }

    private final CampaignBlueprint blueprint;
    private final SessionOpener opener;
    private final EngineTimings timings;
    private final HealingTimings healing;
    private final LocalLaneLauncher lanes;
    private String nextAction;
    private final ProgressDisplay progress;
    private final Consumer<String> log;
    private final Duration driverWait;
    private final String owner = "driver@" + HostName.local() + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 8);
    private final DriverHold hold;
    private PreflightResult refusal;

    /** @param driverWait how long to wait for another driver's live session to let go of the campaign */
    LocalDriver(CampaignBlueprint blueprint, SessionOpener opener, EngineTimings timings, HealingTimings healing,
                LocalLaneLauncher lanes, ProgressDisplay progress, Consumer<String> log, Duration driverWait) {
        this.blueprint = blueprint;
        // Each session's engines run spec.reconcile's passes before the handoff (ADR 0057); their lines go to the log.
        this.opener = () -> {
            CampaignRuntime runtime = opener.open();
            runtime.logPassesTo(line -> log.accept("reconcile: " + line));
            return runtime;
        };
        this.timings = timings;
        this.healing = healing;
        this.lanes = lanes;
        this.progress = progress;
        this.log = log;
        this.driverWait = driverWait;
        this.hold = new DriverHold(timings, log);
    }

    /**
     * Runs to a settled phase and returns the process exit code; pre-flight gates a campaign not yet prepared.
     * {@code skipPreflightBy}: null to run pre-flight, else how an expert skipped it.
     */
    int run(boolean resume, String skipPreflightBy) throws Exception {
        CampaignRuntime runtime = opener.open();
        hold.opened(runtime);
        TerminalStatus status = new TerminalStatus(progress, log, this::status);
        CampaignOpener campaigns = new CampaignOpener(status);
        RuntimeSession session = session(runtime, skipPreflightBy);
        Optional<PreflightResult> refused = campaigns.open(session);
        if (refused.isPresent()) {
            refusal = refused.get();
            log.accept("pre-flight refused the campaign: nothing was created (no ledger, lock, shadow or lane)");
            PreflightReport.print(refusal, log);
            return ExitCodes.PREFLIGHT_ERRORS;
        }
        CampaignClaim claim = campaigns.claim(session, driverWait);
        if (claim instanceof CampaignClaim.Held held) {
            log.accept("another driver holds the campaign lease: " + held.owner() + " until " + held.leaseExpires()
                    + "; its database session still holds the campaign, so it is not taken over, whatever the lease says."
                    + " Stop that driver, or end its session on the server, then resume");
            return ExitCodes.LEASE_HELD;
        }
        hold.took(runtime, ((CampaignClaim.Taken) claim).lease());
        hold.keep();
        DriverLoop loop = new DriverLoop(blueprint.definition().spec(), new ProcessLaneFleet(lanes, timings.drainTimeout()),
                status, new Reconnect(opener, r -> session(r, skipPreflightBy), campaigns, hold, healing, log),
                new UntilSettled(lanes::awaitLaneExit), Clock.systemUTC());
        try {
            StepResult result = loop.drive(new HeldCampaign(session, hold.lease()), resume ? this::resume : PendingActions.NONE);
            progress.finish();
            return exitCode(result);
        } finally {
            lanes.close();
            hold.release();
        }
    }

    private RuntimeSession session(CampaignRuntime runtime, String skipPreflightBy) {
        return new RuntimeSession(runtime, blueprint, skipPreflightBy, owner, timings.leaseTtl(), hold::lost);
    }

    /** `backfill resume`: failed chunks go back to pending with a fresh attempt budget. */
    private void resume(CampaignEngine engine, CampaignLease lease) {
        int requeued = engine.resume(lease);
        log.accept("resume: " + requeued + " failed chunk(s) re-queued");
    }

    /** Says where the run left the campaign and what to do next, and returns the exit code that says the same. */
    private int exitCode(StepResult result) {
        log.accept(result.phase() + ": " + result.message());
        String next = NextActionText.of(result.next());
        if (next != null) {
            log.accept("next: " + next);
            nextAction = next;
        }
        if (result.next() instanceof NextAction.AwaitGroup) {
            return ExitCodes.AWAITING_GROUP;
        }
        if (result.phase() == io.dpone.backfill.core.campaign.CampaignPhase.HandoffCommitted
                && blueprint.definition().spec().reconcileMode() != io.dpone.backfill.core.campaign.ReconcileMode.NONE) {
            return reconciled();
        }
        return switch (result.phase()) {
            case HandoffCommitted -> ExitCodes.OK;
            case Blocked -> ExitCodes.BLOCKED;
            default -> ExitCodes.RECOVERABLE;
        };
    }

    /**
     * Handed off after the spec's passes: the receiving report, and {@code backfill reconcile}'s exit code for it (0
     * caught up, 7 keys wait for a decision), so a script reads a queue the same way from either command.
     */
    private int reconciled() {
        var spec = blueprint.definition().spec();
        io.dpone.backfill.core.reconcile.ReconcileLedger passes = io.dpone.backfill.wiring.Connectors
                .target(spec.getTarget().getType()).reconcileLedger(hold.session().targetConnection(), spec.getState().getSchema());
        var record = hold.session().ledger().findByRunKey(blueprint.identity().runKey()).orElseThrow();
        io.dpone.backfill.cli.status.ReconcileReport report = io.dpone.backfill.cli.status.ReconcileReport.read(passes,
                blueprint.identity().runKey(), record.anchorXmin(), spec.getChunk());
        report.textLines().forEach(log);
        if (!report.caughtUp()) {
            nextAction = report.nextAction();
            log.accept("next: " + nextAction);
            return ExitCodes.DIFFERENCES;
        }
        return ExitCodes.OK;
    }

    /** What the run's last step said to do next, as stderr said it; null when it said nothing beyond the ledger. */
    String nextAction() {
        return nextAction;
    }

    /** The refusing pre-flight verdict when {@link #run} returned {@link #ExitCodes.PREFLIGHT_ERRORS}; null otherwise. */
    PreflightResult refusal() {
        return refusal;
    }

    /** The session the driver holds now (a new one after each reconnect). */
    CampaignRuntime session() {
        return hold.session();
    }

    BackfillCampaignStatus status() {
        return StatusReader.read(blueprint, hold.session().ledger()).orElseThrow();
    }

    @Override
    public void close() {
        hold.close();
    }
}

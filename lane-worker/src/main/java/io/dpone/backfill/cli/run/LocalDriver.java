package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.local.LocalLaneLauncher;
import io.dpone.backfill.cli.plan.PreflightReport;
import io.dpone.backfill.cli.status.StatusReader;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.driver.DriverLoop;
import io.dpone.backfill.core.driver.Healing;
import io.dpone.backfill.core.driver.HeldCampaign;
import io.dpone.backfill.core.driver.PendingActions;
import io.dpone.backfill.core.driver.UntilSettled;
import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.engine.NextAction;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.heal.ConnectionLoss;
import io.dpone.backfill.core.heal.HealingTimings;
import io.dpone.backfill.core.heal.ReconnectBackoff;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.LeaseHeartbeat;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.lane.HostName;
import io.dpone.backfill.wiring.CampaignRuntime;
import io.dpone.backfill.wiring.StaleSessionIds;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Hosts the driver loop ({@link DriverLoop}, ADR 0050) for `backfill run`: lanes as local process groups, news as
 * log lines and a progress line, stepping until the campaign settles. What is the CLI's own: its connections, the
 * campaign lease renewed from its own thread (ADR 0016), and healing within the run (ADR 0020): a lost connection
 * gets a new session, the old one's server sessions ended, the campaign taken back under a new epoch, and stepping
 * goes on; lanes heal by themselves meanwhile.
 */
public final class LocalDriver implements AutoCloseable {

    /** Failures of a statement on a live connection that a repeated step clears by itself. */
    private static final java.util.Set<String> RETRIED_IN_PLACE = java.util.Set.of("LockTimeout", "Deadlock",
            "SerializationFailure", "ServiceBusy", "InsufficientResources");

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
    private final ProgressDisplay progress;
    private final Consumer<String> log;
    private final Duration driverWait;
    private final String owner = "driver@" + HostName.local() + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 8);

    private volatile CampaignRuntime session;
    private volatile CampaignLease lease;
    private final LeaseHeartbeat heartbeat;
    private final AtomicBoolean leaseLost = new AtomicBoolean();
    private volatile boolean reconnecting;
    private PreflightResult refusal;
    /** The loop of this run: a reconnect opens and claims the campaign again through it. */
    private DriverLoop loop;

    /** @param driverWait how long to wait for another driver's live session to let go of the campaign */
    LocalDriver(CampaignBlueprint blueprint, SessionOpener opener, EngineTimings timings, HealingTimings healing,
                LocalLaneLauncher lanes, ProgressDisplay progress, Consumer<String> log, Duration driverWait) {
        this.blueprint = blueprint;
        this.opener = opener;
        this.timings = timings;
        this.heartbeat = new LeaseHeartbeat(timings.leaseTtl());
        this.healing = healing;
        this.lanes = lanes;
        this.progress = progress;
        this.log = log;
        this.driverWait = driverWait;
    }

    /**
     * Runs to a settled phase and returns the process exit code; pre-flight gates a campaign not yet prepared.
     * {@code skipPreflightBy}: null to run pre-flight, else how an expert skipped it.
     */
    int run(boolean resume, String skipPreflightBy) throws Exception {
        session = opener.open();
        loop = new DriverLoop(blueprint.definition().spec(), new ProcessLaneFleet(lanes, timings.drainTimeout()),
                new TerminalStatus(progress, log, this::status), new Reconnect(skipPreflightBy),
                new UntilSettled(lanes::awaitLaneExit), Clock.systemUTC());
        RuntimeSession opened = session(session, skipPreflightBy);
        Optional<PreflightResult> refused = loop.open(opened);
        if (refused.isPresent()) {
            refusal = refused.get();
            log.accept("pre-flight refused the campaign: nothing was created (no ledger, lock, shadow or lane)");
            PreflightReport.print(refusal, log);
            return ExitCodes.PREFLIGHT_ERRORS;
        }
        CampaignClaim claim = loop.claim(opened, driverWait);
        if (claim instanceof CampaignClaim.Held held) {
            log.accept("another driver holds the campaign lease: " + held.owner() + " until " + held.leaseExpires()
                    + "; its database session still holds the campaign, so it is not taken over, whatever the lease says."
                    + " Stop that driver, or end its session on the server, then resume");
            return ExitCodes.LEASE_HELD;
        }
        lease = ((CampaignClaim.Taken) claim).lease();
        heartbeat.beat();
        ScheduledExecutorService renewer = daemon("campaign-lease-renewer");
        ScheduledExecutorService deadline = daemon("campaign-lease-deadline");
        long every = timings.renewEvery().toMillis();
        renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
        long check = Math.max(100, Math.min(1000, every));
        deadline.scheduleWithFixedDelay(this::checkDeadline, check, check, TimeUnit.MILLISECONDS);
        try {
            StepResult result = loop.drive(new HeldCampaign(opened, lease), resume ? this::resume : PendingActions.NONE);
            progress.finish();
            log.accept(result.phase() + ": " + result.message());
            String next = NextActionText.of(result.next());
            if (next != null) {
                log.accept("next: " + next);
            }
            if (result.next() instanceof NextAction.AwaitGroup) {
                return ExitCodes.AWAITING_GROUP;
            }
            return switch (result.phase()) {
                case HandoffCommitted -> ExitCodes.OK;
                case Blocked -> ExitCodes.BLOCKED;
                default -> ExitCodes.RECOVERABLE;
            };
        } finally {
            renewer.shutdownNow();
            deadline.shutdownNow();
            lanes.close();
            try {
                if (!leaseLost.get()) {
                    session.ledger().releaseLease(lease);
                }
            } catch (RuntimeException e) {
                log.accept("could not release the campaign lease (it expires by itself): " + e.getMessage());
            }
        }
    }

    private RuntimeSession session(CampaignRuntime runtime, String skipPreflightBy) {
        return new RuntimeSession(runtime, blueprint, skipPreflightBy, owner, timings.leaseTtl(), leaseLost::get);
    }

    /** `backfill resume`: failed chunks go back to pending with a fresh attempt budget. */
    private void resume(io.dpone.backfill.core.engine.CampaignEngine engine, CampaignLease held) {
        int requeued = engine.resume(held);
        log.accept("resume: " + requeued + " failed chunk(s) re-queued");
    }

    /**
     * Healing within the run: a lock timeout, deadlock or serialization failure on a live connection repeats the
     * step after a pause; a lost connection gets a new session and the campaign claimed again; anything else ends it.
     */
    private final class Reconnect implements Healing {
        private final String skipPreflightBy;
        private final ReconnectBackoff backoff = healing.backoff();

        Reconnect(String skipPreflightBy) {
            this.skipPreflightBy = skipPreflightBy;
        }

        @Override
        public HeldCampaign heal(HeldCampaign failed, RuntimeException failure) throws Exception {
            if (ConnectionLoss.is(failure)) {
                reconnecting = true;
                try {
                    reconnectOnce(backoff, failure, skipPreflightBy);
                } finally {
                    reconnecting = false;
                }
                return new HeldCampaign(session(session, skipPreflightBy), lease);
            }
            if (failure instanceof DatabaseFailureException e && e.isTransient() && RETRIED_IN_PLACE.contains(e.reason())) {
                retryLater(backoff, e);
                return failed;
            }
            throw failure;
        }

        @Override
        public void healed() {
            backoff.healed();
        }
    }

    private void retryLater(ReconnectBackoff backoff, DatabaseFailureException e) throws InterruptedException {
        Optional<Duration> wait = backoff.failed();
        if (wait.isEmpty()) {
            log.accept("driver: still failing after the reconnect budget (" + healing.budget().toSeconds() + " s); giving up");
            throw e;
        }
        log.accept(String.format("driver: transient failure (%s): %s; stepping again in %.1f s", e.reason(),
                ConnectionLoss.describe(e), wait.get().toMillis() / 1000.0));
        Thread.sleep(wait.get().toMillis());
    }

    /**
     * A new session after a lost connection: the old session's server sessions are ended first (a half-open state
     * session would keep the driver lock), then the campaign is claimed again, which gives this driver a new epoch.
     */
    private void reconnectOnce(ReconnectBackoff backoff, RuntimeException cause, String skipPreflightBy) throws Exception {
        CampaignRuntime lost = session;
        StaleSessionIds stale = lost.sessionIds();
        lost.abortConnections();
        lost.close();
        Exception last = cause;
        while (true) {
            backoff.pauseOrGiveUp("driver: connection lost", last, log);
            CampaignRuntime fresh;
            try {
                fresh = opener.open();
            } catch (SQLException | RuntimeException e) {
                if (!ConnectionLoss.is(e)) {
                    throw e;
                }
                last = e;
                continue;
            }
            try {
                int ended = fresh.endStale(stale);
                // The new engine has not seen pre-flight: a campaign still Planned is checked again before preparing.
                RuntimeSession reopened = session(fresh, skipPreflightBy);
                Optional<PreflightResult> refused = loop.open(reopened);
                if (refused.isPresent()) {
                    throw new PreflightRefusedException(refused.get());
                }
                CampaignClaim claim = loop.claim(reopened, backoff.remaining());
                if (claim instanceof CampaignClaim.Held held) {
                    throw new LeaseLostException("after reconnecting, the campaign is held by " + held.summary()
                            + "; stopping without further changes");
                }
                lease = ((CampaignClaim.Taken) claim).lease();
                heartbeat.beat();
                session = fresh;
                log.accept("driver: reconnected; ended " + ended + " stale session(s); campaign taken back with epoch "
                        + lease.epoch());
                return;
            } catch (RuntimeException e) {
                fresh.close();
                if (!ConnectionLoss.is(e)) {
                    throw e;
                }
                last = e;
            }
        }
    }

    private void renew() {
        if (reconnecting) {
            return;
        }
        CampaignRuntime current = session;
        CampaignLease held = lease;
        try {
            if (current.ledger().renewLease(held, timings.leaseTtl())) {
                heartbeat.beat();
            } else if (held == lease) {
                leaseLost.set(true);
            }
        } catch (RuntimeException e) {
            log.accept("campaign lease renewal failed (will retry): " + e.getMessage());
        }
    }

    /**
     * A renewal that has not succeeded for most of the TTL means the state connection is gone or hung: its sockets
     * are aborted so the step blocked on it fails and the driver reconnects, instead of waiting forever.
     */
    private void checkDeadline() {
        if (reconnecting) {
            return;
        }
        if (heartbeat.silent()) {
            log.accept("driver: no lease renewal succeeded for " + heartbeat.silentSeconds() + " s: aborting its connections");
            heartbeat.beat();
            session.abortConnections();
        }
    }

    /** The refusing pre-flight verdict when {@link #run} returned {@link #ExitCodes.PREFLIGHT_ERRORS}; null otherwise. */
    PreflightResult refusal() {
        return refusal;
    }

    /** The session the driver holds now (a new one after each reconnect). */
    CampaignRuntime session() {
        return session;
    }

    BackfillCampaignStatus status() {
        return StatusReader.read(blueprint, session.ledger()).orElseThrow();
    }

    @Override
    public void close() {
        CampaignRuntime current = session;
        if (current != null) {
            current.close();
        }
    }

    private static ScheduledExecutorService daemon(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

}

package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.local.LaneBudgetExceededException;
import io.dpone.backfill.cli.local.LocalLaneLauncher;
import io.dpone.backfill.cli.plan.PreflightReport;
import io.dpone.backfill.cli.status.StatusReader;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.engine.EngineAction;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.engine.NextAction;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.heal.ConnectionLoss;
import io.dpone.backfill.core.heal.HealingTimings;
import io.dpone.backfill.core.heal.ReconnectBackoff;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ThrottleRecorder;
import io.dpone.backfill.core.engine.ClaimGate;
import io.dpone.backfill.core.ledger.LeaseHeartbeat;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.lane.HostName;
import io.dpone.backfill.wiring.CampaignRuntime;
import io.dpone.backfill.wiring.StaleSessionIds;

import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Drives one campaign locally: claims the campaign (its driver lock and lease, ADR 0016; the lease renewed from its
 * own thread), steps the engine until the campaign settles, and carries out the engine's lane actions with local
 * processes. It re-implements no phase. A lost connection (server restart, failover, a half-open connection its
 * deadline aborted) is healed here (ADR 0020): a new session, the old one's server sessions ended, the campaign
 * taken back under a new epoch, and stepping goes on; lanes heal by themselves meanwhile.
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
        CampaignEngine engine = session.engine();
        var preflight = session.preflight(blueprint, skipPreflightBy);
        if (preflight.isSkipped()) {
            log.accept("pre-flight skipped (" + preflight.skipReason() + "): the evidence records it");
        }
        try {
            engine.open(preflight);
        } catch (PreflightRefusedException e) {
            refusal = e.result();
            log.accept("pre-flight refused the campaign: nothing was created (no ledger, lock, shadow or lane)");
            PreflightReport.print(e.result(), log);
            return ExitCodes.PREFLIGHT_ERRORS;
        }
        CampaignClaim claim = new CampaignClaimWait(session.ledger(), driverWait, log).claim(engine.runKey(), owner, timings.leaseTtl());
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
            // The file's ceiling at each start; `backfill throttle` changes it in the ledger while this runs.
            ThrottleRecorder.apply(session.ledger(), lease.runKey(), blueprint.definition().spec())
                    .ifPresent(t -> log.accept("rate ceiling: " + t.describe()));
            startLanesDuringPreparation();
            if (resume) {
                int requeued = session.engine().resume(lease);
                log.accept("resume: " + requeued + " failed chunk(s) re-queued");
            }
            StepResult result = stepUntilSettled(skipPreflightBy);
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

    /**
     * A campaign still to be prepared gets its lanes now: each process starts (a JVM, its connections) while the
     * driver prepares, then waits for Loading (LoadingGate), instead of starting only once preparation is done.
     */
    private void startLanesDuringPreparation() throws IOException {
        if (Boolean.TRUE.equals(blueprint.definition().spec().getSuspend())) {
            return; // a suspended campaign parks before Loading: its lanes would only start and stop
        }
        CampaignPhase phase = session.ledger().findByRunKey(lease.runKey()).map(CampaignRecord::phase).orElse(null);
        if (phase != null && phase.preparing()) {
            int count = Math.min(blueprint.definition().spec().getParallelWorkers(),
                    session.ledger().throttle(lease.runKey()).lanes());
            lanes.ensure(count);
            log.accept(count + " lane(s) started while the campaign is " + phase + "; they wait for Loading");
        }
    }

    /** The last publication-window wait told to the user, so each is said once. */
    private String lastWait = "";

    private StepResult stepUntilSettled(String skipPreflightBy) throws Exception {
        ReconnectBackoff backoff = healing.backoff();
        while (true) {
            try {
                if (leaseLost.get()) {
                    throw new LeaseLostException("campaign lease lost: another driver took over; stopping without further changes");
                }
                StepResult result = session.engine().step(lease);
                if (result.wantsLanes()) {
                    try {
                        // The lane count in force (issue 28) as the ledger holds it: `backfill throttle --lanes` changes it.
                        lanes.ensure(Math.min(session.ledger().throttle(lease.runKey()).lanes(), result.actions().stream()
                                .filter(a -> a instanceof EngineAction.RunLanes)
                                .mapToInt(a -> ((EngineAction.RunLanes) a).lanes()).max().orElse(1)));
                    } catch (LaneBudgetExceededException e) {
                        result = session.engine().lanesExhausted(lease, e.getMessage());
                    }
                }
                if (result.stopsLanes()) {
                    lanes.stop(timings.drainTimeout());
                }
                if (result.phase() == CampaignPhase.Loading) {
                    // One look at the windows and the source a step: the lanes read the pause from the ledger before
                    // each claim.
                    ClaimGate.apply(session.sourceLoad(), java.time.Instant.now(), session.ledger(), lease.runKey(),
                                    blueprint.definition().spec())
                            .ifPresent(c -> log.accept(c.paused() ? "claims paused (" + c.pause().reason() + "): "
                                    + c.pause().message() : "claims resume: the lanes claim chunks again"));
                }
                progress.update(status());
                backoff.healed();
                if (result.settled()) {
                    return result;
                }
                if (result.next() instanceof NextAction.AwaitGroup) {
                    // The other members load in their own runs: this one parks, validated, and lets go of its lease.
                    return result;
                }
                if ((result.next() instanceof NextAction.AwaitWindow || result.next() instanceof NextAction.AwaitApproval)
                        && !result.message().equals(lastWait)) {
                    // Said once per wait: the progress line alone would show a campaign stuck in Publishing.
                    log.accept(result.message() + "; " + NextActionText.of(result.next()));
                    lastWait = result.message();
                }
                lanes.awaitLaneExit(result.requeueAfter());
            } catch (DatabaseFailureException e) {
                if (ConnectionLoss.is(e)) {
                    reconnect(backoff, e, skipPreflightBy);
                } else if (e.isTransient() && RETRIED_IN_PLACE.contains(e.reason())) {
                    // A lock timeout, deadlock or serialization failure on a live connection: the step is repeatable.
                    retryLater(backoff, e);
                } else {
                    throw e;
                }
            } catch (RuntimeException e) {
                if (!ConnectionLoss.is(e)) {
                    throw e;
                }
                reconnect(backoff, e, skipPreflightBy);
            }
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
    private void reconnect(ReconnectBackoff backoff, RuntimeException cause, String skipPreflightBy) throws Exception {
        reconnecting = true;
        try {
            reconnectOnce(backoff, cause, skipPreflightBy);
        } finally {
            reconnecting = false;
        }
    }

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
                fresh.engine().open(fresh.preflight(blueprint, skipPreflightBy));
                CampaignClaim claim = new CampaignClaimWait(fresh.ledger(), backoff.remaining(), log)
                        .claim(fresh.engine().runKey(), owner, timings.leaseTtl());
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

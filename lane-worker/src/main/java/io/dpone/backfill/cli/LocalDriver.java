package io.dpone.backfill.cli;

import io.dpone.backfill.cli.local.LaneBudgetExceededException;
import io.dpone.backfill.cli.local.LocalLaneLauncher;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.wiring.CampaignSession;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Drives one campaign locally: claims the campaign (its driver lock and lease, ADR 0016; the lease renewed from its
 * own thread), steps the engine until the campaign settles, and carries out the engine's lane actions with local processes. It re-implements no phase.
 */
final class LocalDriver {
    static final int EXIT_BLOCKED = 3;
    static final int EXIT_RECOVERABLE = 4;
    static final int EXIT_LEASE_HELD = 5;
    static final int EXIT_PREFLIGHT_REFUSED = 6;

    private final CampaignBlueprint blueprint;
    private final CampaignSession session;
    private final EngineTimings timings;
    private final LocalLaneLauncher lanes;
    private final ProgressDisplay progress;
    private final Consumer<String> log;
    private final Duration driverWait;
    private final String owner = "driver@" + host() + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 8);

    /** @param driverWait how long to wait for another driver's live session to let go of the campaign */
    LocalDriver(CampaignBlueprint blueprint, CampaignSession session, EngineTimings timings, LocalLaneLauncher lanes,
                ProgressDisplay progress, Consumer<String> log, Duration driverWait) {
        this.blueprint = blueprint;
        this.session = session;
        this.timings = timings;
        this.lanes = lanes;
        this.progress = progress;
        this.log = log;
        this.driverWait = driverWait;
    }

    private PreflightResult refusal;

    /** Runs to a settled phase and returns the process exit code; pre-flight gates a campaign not yet prepared. */
    int run(boolean resume, Preflight preflight) throws Exception {
        CampaignEngine engine = session.engine();
        LedgerStore ledger = session.ledger();
        if (preflight.isSkipped()) {
            log.accept("pre-flight skipped (" + preflight.skipReason() + "): the evidence records it");
        }
        try {
            engine.open(preflight);
        } catch (PreflightRefusedException e) {
            refusal = e.result();
            log.accept("pre-flight refused the campaign: nothing was created (no ledger, lock, shadow or lane)");
            PreflightReport.print(e.result(), log);
            return EXIT_PREFLIGHT_REFUSED;
        }
        CampaignClaim claim = new CampaignClaimWait(ledger, driverWait, log).claim(engine.runKey(), owner, timings.leaseTtl());
        if (claim instanceof CampaignClaim.Held held) {
            log.accept("another driver holds the campaign lease: " + held.owner() + " until " + held.leaseExpires()
                    + "; its database session still holds the campaign, so it is not taken over, whatever the lease says."
                    + " Stop that driver, or end its session on the server, then resume");
            return EXIT_LEASE_HELD;
        }
        CampaignLease lease = ((CampaignClaim.Taken) claim).lease();
        AtomicBoolean leaseLost = new AtomicBoolean();
        ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "campaign-lease-renewer");
            t.setDaemon(true);
            return t;
        });
        long every = timings.renewEvery().toMillis();
        renewer.scheduleWithFixedDelay(() -> {
            try {
                if (!ledger.renewLease(lease, timings.leaseTtl())) {
                    leaseLost.set(true);
                }
            } catch (RuntimeException e) {
                log.accept("campaign lease renewal failed (will retry): " + e.getMessage());
            }
        }, every, every, TimeUnit.MILLISECONDS);
        try {
            if (resume) {
                int requeued = engine.resume(lease);
                log.accept("resume: " + requeued + " failed chunk(s) re-queued");
            }
            StepResult result;
            while (true) {
                if (leaseLost.get()) {
                    throw new LeaseLostException("campaign lease lost: another driver took over; stopping without further changes");
                }
                result = engine.step(lease);
                if (result.wantsLanes()) {
                    try {
                        lanes.ensure(result.actions().stream()
                                .filter(a -> a instanceof io.dpone.backfill.core.engine.EngineAction.RunLanes)
                                .mapToInt(a -> ((io.dpone.backfill.core.engine.EngineAction.RunLanes) a).lanes()).max().orElse(1));
                    } catch (LaneBudgetExceededException e) {
                        result = engine.lanesExhausted(lease, e.getMessage());
                    }
                }
                if (result.stopsLanes()) {
                    lanes.stop(timings.drainTimeout());
                }
                progress.update(status());
                if (result.settled()) {
                    break;
                }
                lanes.awaitLaneExit(result.requeueAfter());
            }
            progress.finish();
            log.accept(result.phase() + ": " + result.message());
            String next = NextActionText.of(result.next());
            if (next != null) {
                log.accept("next: " + next);
            }
            return switch (result.phase()) {
                case HandoffCommitted -> BackfillCli.EXIT_OK;
                case Blocked -> EXIT_BLOCKED;
                default -> EXIT_RECOVERABLE;
            };
        } finally {
            renewer.shutdownNow();
            lanes.close();
            try {
                if (!leaseLost.get()) {
                    ledger.releaseLease(lease);
                }
            } catch (RuntimeException e) {
                log.accept("could not release the campaign lease (it expires by itself): " + e.getMessage());
            }
        }
    }

    /** The refusing pre-flight verdict when {@link #run} returned {@link #EXIT_PREFLIGHT_REFUSED}; null otherwise. */
    PreflightResult refusal() {
        return refusal;
    }

    BackfillCampaignStatus status() {
        return StatusReader.read(blueprint, session.ledger()).orElseThrow();
    }

    static String host() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }

}

package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.PublicationMode;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.engine.CampaignStatusProjector;
import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.engine.EngineAction;
import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.heal.ConnectionLoss;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.LedgerConflictException;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.target.PublishedTableWrittenException;
import io.dpone.backfill.operator.config.OperatorSettings;
import io.dpone.backfill.operator.kubernetes.ApiServerAnswer;
import io.dpone.backfill.operator.lanes.LanePods;
import io.dpone.backfill.operator.lanes.LaneReport;
import io.dpone.backfill.operator.lanes.LaneSupervisor;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.postgres.PostgresEndpoint;
import io.dpone.backfill.wiring.TargetAdapters;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One pass on the campaign engine for one campaign: connect (Secrets, hold), open the ledger, hold the campaign
 * lease, carry out operator-authorised actions, step the engine until it waits, map its lane actions to pods, and
 * project the ledger into a status. It implements no phase: every decision about the campaign is the engine's.
 */
public final class CampaignDriver {
    private static final Logger LOG = Logger.getLogger(CampaignDriver.class);
    private static final int MAX_STEPS_PER_PASS = 16;
    private static final Duration SECRET_RETRY = Duration.ofSeconds(30);
    private static final Duration DATABASE_RETRY = Duration.ofSeconds(15);
    private static final Duration API_RETRY = Duration.ofSeconds(5);

    private final OperatorSettings settings;
    private final CampaignHolds holds;
    private final SecretResolver secrets;
    private final LaneSupervisor lanes;
    private final Clock clock;
    private final ChunkWatch chunkWatch = new ChunkWatch();

    public CampaignDriver(OperatorSettings settings, CampaignHolds holds, SecretResolver secrets, LaneSupervisor lanes,
                          Clock clock) {
        this.settings = settings;
        this.holds = holds;
        this.secrets = secrets;
        this.lanes = lanes;
        this.clock = clock;
    }

    public DriveOutcome drive(KubernetesClient client, BackfillCampaign campaign, CampaignBlueprint blueprint, LanePods observed) {
        String key = key(campaign);
        BackfillCampaignSpec spec = blueprint.definition().spec();
        String namespace = campaign.getMetadata().getNamespace();
        SecretResolver.Resolved source;
        SecretResolver.Resolved target;
        try {
            source = secrets.resolve(client, namespace, spec.getSource().getConnectionSecretRef().getName(),
                    PostgresEndpoint.INSTANCE);
            target = secrets.resolve(client, namespace, spec.getTarget().getConnectionSecretRef().getName(),
                    TargetAdapters.of(spec.getTarget().getType()).endpoint());
        } catch (SecretUnavailableException e) {
            return new DriveOutcome.Waiting(e.reason(), e.getMessage(), SECRET_RETRY);
        }
        CampaignHold hold;
        try {
            hold = holds.open(key, blueprint, source.settings(), target.settings());
        } catch (SQLException e) {
            return new DriveOutcome.Waiting("DatabaseUnavailable", e.getMessage(), DATABASE_RETRY);
        }
        try {
            CampaignEngine engine = hold.engine(blueprint);
            try {
                engine.open(hold.runtime().preflight(blueprint, OperatorActions.skipPreflight(campaign)));
            } catch (PreflightRefusedException e) {
                holds.release(key); // nothing was created: no lease, no connection held for a refused start
                OperatorActions.markRetriesHandled(client, campaign);
                return new DriveOutcome.PreflightRefused(e.result(), blueprint.identity().runKey());
            }
            OperatorActions.markRetriesHandled(client, campaign);
            CampaignClaim claim = hold.acquire(settings.instanceId(), settings.timings().leaseTtl());
            if (claim instanceof CampaignClaim.Held held) {
                holds.release(key); // no connections held while another driver owns the campaign
                return new DriveOutcome.Waiting("LeaseHeldElsewhere", "the campaign is held by " + held.summary()
                        + " (another operator or a `backfill run`) whose database session is still open; this operator"
                        + " takes over as soon as that session ends", settings.timings().leaseTtl().dividedBy(3));
            }
            CampaignClaim.Taken taken = (CampaignClaim.Taken) claim;
            CampaignLease lease = taken.lease();
            List<DriveOutcome.Note> notes = new ArrayList<>();
            if (taken.tookOverFrom() != null) {
                notes.add(new DriveOutcome.Note("CampaignTakenOver", "took the campaign over from " + taken.tookOverFrom()
                        + " at once: its database session is gone; lease epoch " + lease.epoch() + " fences anything it still writes", false));
            }
            LanePods pods = requeueFailed(client, campaign, engine, lease, observed, notes);
            approve(client, campaign, hold, engine.runKey(), notes);
            // The one spec field lanes follow while they run (issue 28): the ledger is how it reaches them.
            io.dpone.backfill.core.ledger.ThrottleRecorder.apply(hold.ledger(), engine.runKey(), spec).ifPresent(t ->
                    notes.add(new DriveOutcome.Note("ThrottleChanged", "rate ceiling now " + t.describe(), false)));
            LaneReport early = lanesDuringPreparation(client, campaign, spec, hold, engine.runKey(), pods, source, target);
            List<StepResult> steps = stepUntilWaiting(engine, lease);
            StepResult step = steps.get(steps.size() - 1);
            LaneReport report = early != null ? early : LaneReport.idle(pods.failures(engine.runKey()),
                    spec.getLane().getMaxPodFailures(), pods.active().size(), pods.stuck(engine.runKey(), clock.instant()));
            // spec.throttle.lanes (issue 28): lanes past it stop by themselves (the ledger says so) and are not started.
            int wanted = Math.min(io.dpone.backfill.core.ledger.ThrottleSetting.lanesOf(spec), step.actions().stream()
                    .filter(a -> a instanceof EngineAction.RunLanes)
                    .mapToInt(a -> ((EngineAction.RunLanes) a).lanes()).max().orElse(0));
            // Pods created before preparation in this pass are not in its pod snapshot: asking again would be refused.
            if (wanted > 0 && early == null) {
                report = lanes.ensure(client, campaign, spec, engine.runKey(), wanted, pods, source.secret(), target.secret());
                report.replacedFailures().forEach(p -> notes.add(new DriveOutcome.Note("LanePodReplaced", "lane pod " + p
                        + " failed and was replaced (failure " + pods.failures(engine.runKey()) + " of budget " + spec.getLane().getMaxPodFailures() + ")", true)));
                report.replacedDisruptions().forEach(p -> notes.add(new DriveOutcome.Note("LanePodDisrupted", "lane pod " + p
                        + " was taken away by the cluster (eviction, drain, preemption) and replaced; not counted against the budget", false)));
                if (report.budgetExceeded()) {
                    step = engine.lanesExhausted(lease, "lane pods failed " + report.failures() + " times (budget "
                            + report.budget() + "); read their logs: kubectl logs -n " + namespace + " -l backfill.dpone.io/campaign="
                            + campaign.getMetadata().getName());
                    steps.add(step);
                }
            }
            if (step.stopsLanes()) {
                if (step.phase() == CampaignPhase.HandoffCommitted) {
                    lanes.deleteAll(client, pods.all());
                } else {
                    lanes.drain(client, pods);
                }
            }
            if (step.phase() == CampaignPhase.Loading) {
                // The load windows and the source guard: one look a pass, recorded for the lanes (issue 28).
                io.dpone.backfill.core.engine.ClaimGate.apply(hold.runtime().sourceLoad(), clock.instant(), hold.ledger(),
                        engine.runKey(), spec).ifPresent(c -> notes.add(c.paused()
                        ? new DriveOutcome.Note("ClaimsPaused", c.pause().reason() + ": no new chunk claims: " + c.pause().message(), true)
                        : new DriveOutcome.Note("ClaimsResumed", "the lanes claim chunks again", false)));
            }
            Optional<RollbackReceipt> rollback = rollback(client, campaign, blueprint, hold, lease, step, notes);
            BackfillCampaignStatus projection = project(blueprint, hold.ledger(), engine.runKey(),
                    campaign.getStatus() != null && campaign.getStatus().getThrottle() != null
                            && campaign.getStatus().getThrottle().throttled());
            DriveOutcome.ChunkActivity activity = step.phase() == CampaignPhase.Loading
                    ? chunkWatch.observe(hold.ledger(), engine.runKey(), clock.instant()) : DriveOutcome.ChunkActivity.NONE;
            if (step.settled()) {
                // Nothing moves without a person now: no connection and no lease is held for a settled campaign.
                holds.release(key);
                chunkWatch.forget(engine.runKey());
            }
            return new DriveOutcome.Stepped(steps, projection, report, rollback, notes, activity);
        } catch (LedgerConflictException e) {
            holds.release(key);
            return new DriveOutcome.Refused("NewBackfillIdRequired", "the ledger already holds backfillId "
                    + spec.getBackfillId() + " with another plan or policy: " + e.getMessage(),
                    "a changed spec needs a new campaign: create a new BackfillCampaign with a new backfillId (or revert the change)");
        } catch (LeaseLostException e) {
            hold.markLeaseLost();
            return new DriveOutcome.Waiting("LeaseLost", e.getMessage(), Duration.ofSeconds(1));
        } catch (DatabaseFailureException e) {
            LOG.warnf("pass on campaign %s/%s failed (%s, %s): %s", namespace, campaign.getMetadata().getName(), e.kind(),
                    e.reason(), e.getMessage());
            endSession(key, e);
            return DatabaseFailures.outcome(e, campaign, DATABASE_RETRY);
        } catch (KubernetesClientException e) {
            // The Kubernetes API failed (a 5xx, 429, a restart), not the database: the lease and the connections
            // stay; the pass is tried again. Never an EngineError, never a release and re-take of the lease.
            LOG.warnf("pass on campaign %s/%s: Kubernetes API call failed (HTTP %d): %s", namespace, campaign.getMetadata().getName(),
                    e.getCode(), e.getMessage());
            return new DriveOutcome.Waiting("KubernetesApiUnavailable", "a Kubernetes API call failed (HTTP " + e.getCode() + "): "
                    + ApiServerAnswer.message(e), API_RETRY);
        } catch (RuntimeException e) {
            LOG.warnf(e, "pass on campaign %s/%s failed", namespace, campaign.getMetadata().getName());
            endSession(key, e);
            return new DriveOutcome.Waiting("EngineError", String.valueOf(e.getMessage()), DATABASE_RETRY);
        }
    }

    /** A lost connection abandons the hold (its server holds ended by the next); any other failure releases it. */
    private void endSession(String key, RuntimeException failure) {
        if (ConnectionLoss.is(failure)) {
            holds.abandon(key);
        } else {
            holds.release(key);
        }
    }

    /** Forgets a campaign (deleted, refused): closes its hold and releases its lease. */
    public void forget(BackfillCampaign campaign) {
        holds.release(key(campaign));
        if (campaign.getStatus() != null && campaign.getStatus().getRunKey() != null) {
            chunkWatch.forget(campaign.getStatus().getRunKey());
        }
    }

    static String key(BackfillCampaign campaign) {
        String uid = campaign.getMetadata().getUid();
        return uid != null ? uid : campaign.getMetadata().getNamespace() + "/" + campaign.getMetadata().getName();
    }

    /** Steps while the engine asks to go on at once, within a bound; every step is kept for the events. */
    private static List<StepResult> stepUntilWaiting(CampaignEngine engine, CampaignLease lease) {
        List<StepResult> steps = new ArrayList<>();
        StepResult step = engine.step(lease);
        steps.add(step);
        for (int i = 1; i < MAX_STEPS_PER_PASS && !step.settled() && step.requeueAfter().isZero() && !step.wantsLanes(); i++) {
            step = engine.step(lease);
            steps.add(step);
        }
        return steps;
    }

    /**
     * A campaign still to be prepared gets its lane pods before the engine prepares it, so their start (scheduling,
     * image, JVM) overlaps preparation; each lane waits for Loading (LoadingGate). Returns null, creating nothing,
     * when the campaign is past preparation or suspended (it parks before Loading), or when the pod failure budget
     * is spent (the loading step reports that).
     */
    private LaneReport lanesDuringPreparation(KubernetesClient client, BackfillCampaign campaign, BackfillCampaignSpec spec,
                                              CampaignHold hold, String runKey, LanePods pods,
                                              SecretResolver.Resolved source, SecretResolver.Resolved target) {
        if (Boolean.TRUE.equals(spec.getSuspend())) {
            return null;
        }
        CampaignPhase phase = hold.ledger().findByRunKey(runKey).map(CampaignRecord::phase).orElse(null);
        if (phase == null || !phase.preparing()) {
            return null;
        }
        LaneReport report = lanes.ensure(client, campaign, spec, runKey, io.dpone.backfill.core.ledger.ThrottleSetting.lanesOf(spec), pods, source.secret(),
                target.secret());
        return report.budgetExceeded() ? null : report;
    }

    /** Returns the lane pods as they are after the action (failed ones removed when it ran). */
    private LanePods requeueFailed(KubernetesClient client, BackfillCampaign campaign, CampaignEngine engine, CampaignLease lease,
                                   LanePods pods, List<DriveOutcome.Note> notes) {
        String token = OperatorActions.requeueToken(campaign);
        if (token == null) {
            return pods;
        }
        int requeued = engine.resume(lease);
        // A new budget for lane pods too: the failed ones (kept for their logs until now) are removed.
        List<io.fabric8.kubernetes.api.model.Pod> failed = pods.failed(engine.runKey());
        lanes.deleteAll(client, failed);
        OperatorActions.markDone(client, campaign, OperatorActions.REQUEUE_FAILED);
        notes.add(new DriveOutcome.Note("FailedChunksRequeued", requeued + " failed chunk(s) re-queued with a fresh attempt budget;"
                + " lane pod failure budget reset (request " + token + ")", false));
        return pods.without(failed);
    }

    /** A person's approval of the swap, by annotation (issue 28): recorded once in the ledger, then marked done. */
    private static void approve(KubernetesClient client, BackfillCampaign campaign, CampaignHold hold, String runKey,
                                List<DriveOutcome.Note> notes) {
        String who = OperatorActions.approval(campaign);
        if (who == null) {
            return;
        }
        hold.ledger().approvePublication(runKey, who).ifPresent(a -> notes.add(new DriveOutcome.Note("PublicationApproved",
                "swap approved by " + a.approvedBy() + " at " + a.approvedAt(), false)));
        OperatorActions.markDone(client, campaign, OperatorActions.APPROVE);
    }

    private Optional<RollbackReceipt> rollback(KubernetesClient client, BackfillCampaign campaign, CampaignBlueprint blueprint,
                                               CampaignHold hold, CampaignLease lease, StepResult step,
                                               List<DriveOutcome.Note> notes) {
        LedgerStore ledger = hold.ledger();
        String runKey = blueprint.identity().runKey();
        String reason = OperatorActions.rollbackReason(campaign);
        if (reason != null) {
            BackfillCampaignSpec spec = blueprint.definition().spec();
            if (spec.getPublication().getMode() != PublicationMode.SHADOW_SWAP) {
                notes.add(new DriveOutcome.Note("RollbackRefused", "only a shadow_swap publication can be rolled back;"
                        + " this campaign appended directly to the live table", true));
            } else if (step.phase() != CampaignPhase.HandoffCommitted) {
                notes.add(new DriveOutcome.Note("RollbackRefused", "a rollback needs a published campaign (HandoffCommitted);"
                        + " the phase is " + step.phase() + ": set the annotation again once it is", true));
            } else {
                try {
                    RollbackReceipt receipt = hold.runtime().publisher().rollback(lease, blueprint.artifacts(),
                            spec.getTarget().getTable(), reason, OperatorActions.rollbackAcceptsWrites(campaign));
                    notes.add(new DriveOutcome.Note("RolledBack", blueprint.artifacts().schema() + "." + spec.getTarget().getTable()
                            + " is the previous table again (rollback receipt " + receipt.receiptId() + "): " + reason
                            + (receipt.acceptedWrites() == null ? "" : "; " + receipt.acceptedWrites()), true));
                } catch (PublishedTableWrittenException e) {
                    notes.add(new DriveOutcome.Note("RollbackRefused", e.getMessage(), true));
                }
            }
            OperatorActions.markDone(client, campaign, OperatorActions.ROLLBACK);
        }
        return ledger.rollbackReceipt(runKey);
    }

    /** {@code wasThrottled}: the last status said the ceiling held the lanes back (the judgement's hysteresis). */
    private static BackfillCampaignStatus project(CampaignBlueprint blueprint, LedgerStore ledger, String runKey,
                                                  boolean wasThrottled) {
        BackfillCampaignSpec spec = blueprint.definition().spec();
        CampaignRecord record = ledger.findByRunKey(runKey).orElseThrow();
        io.dpone.backfill.core.ledger.ChunkCounts counts = ledger.counts(runKey, spec.getMaxChunkAttempts());
        BackfillCampaignStatus status = CampaignStatusProjector.withApproval(CampaignStatusProjector.project(spec,
                blueprint.artifacts(), record, counts, ledger.publicationReceipt(runKey), ledger.handoffReceipt(runKey),
                ledger.rollbackReceipt(runKey)), spec, ledger.publicationApproval(runKey));
        status = CampaignStatusProjector.withGroup(status, spec, ledger::groupMembers);
        return CampaignStatusProjector.withThrottle(status, counts, ledger.throttle(runKey), ledger.claimPause(runKey),
                wasThrottled);
    }
}

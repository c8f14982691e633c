package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.PublicationMode;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.driver.CampaignOpener;
import io.dpone.backfill.core.driver.DriverLoop;
import io.dpone.backfill.core.driver.Healing;
import io.dpone.backfill.core.driver.HeldCampaign;
import io.dpone.backfill.core.driver.PassEnd;
import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.engine.CampaignStatusProjector;
import io.dpone.backfill.core.engine.DatabaseFailureException;
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
import io.dpone.backfill.core.publish.PublishedTableWrittenException;
import io.dpone.backfill.operator.config.OperatorSettings;
import io.dpone.backfill.operator.kubernetes.ApiServerAnswer;
import io.dpone.backfill.operator.lanes.LanePods;
import io.dpone.backfill.operator.lanes.LaneSupervisor;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.wiring.Connectors;
import io.dpone.backfill.wiring.ReconciliationProjection;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Hosts the driver loop ({@link DriverLoop}, ADR 0050) for one reconcile pass: lanes as pods, news as notes for
 * events, one round of steps and then a requeue. What is the operator's own: connections from Secrets kept in a
 * {@link CampaignHold} between passes (its lease renewed by the {@link LeaseKeeper}), the annotations a person acts
 * through, the rollback, and the status projected from the ledger. A failed pass heals in the next one.
 */
public final class CampaignDriver {
    private static final Logger LOG = Logger.getLogger(CampaignDriver.class);
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
                    Connectors.source(spec.getSource().getType()).endpoint());
            target = secrets.resolve(client, namespace, spec.getTarget().getConnectionSecretRef().getName(),
                    Connectors.target(spec.getTarget().getType()).endpoint());
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
            HoldSession session = new HoldSession(hold, blueprint, OperatorActions.skipPreflight(campaign),
                    settings.instanceId(), settings.timings().leaseTtl());
            String runKey = session.engine().runKey();
            PassNotes notes = new PassNotes();
            PodFleet pods = new PodFleet(lanes, client, campaign, spec, runKey, observed, source.secret(), target.secret(),
                    clock, notes);
            CampaignOpener campaigns = new CampaignOpener(notes);
            Optional<PreflightResult> refused = campaigns.open(session);
            if (refused.isPresent()) {
                holds.release(key); // nothing was created: no lease, no connection held for a refused start
                OperatorActions.markRetriesHandled(client, campaign);
                return new DriveOutcome.PreflightRefused(refused.get(), blueprint.identity().runKey());
            }
            OperatorActions.markRetriesHandled(client, campaign);
            // One claim a pass: while another driver's session holds the campaign, the pass waits, not the thread.
            CampaignClaim claim = campaigns.claim(session, Duration.ZERO);
            if (claim instanceof CampaignClaim.Held held) {
                holds.release(key); // no connections held while another driver owns the campaign
                return new DriveOutcome.Waiting("LeaseHeldElsewhere", "the campaign is held by " + held.summary()
                        + " (another operator or a `backfill run`) whose database session is still open; this operator"
                        + " takes over as soon as that session ends", settings.timings().leaseTtl().dividedBy(3));
            }
            CampaignLease lease = ((CampaignClaim.Taken) claim).lease();
            DriverLoop loop = new DriverLoop(spec, pods, notes, Healing.NEXT_PASS, PassEnd.ONE_ROUND, clock);
            StepResult step = loop.drive(new HeldCampaign(session, lease), (engine, held) -> {
                requeueFailed(client, campaign, engine, held, pods, notes);
                approve(client, campaign, hold, engine.runKey(), notes);
            });
            Optional<RollbackReceipt> rollback = rollback(client, campaign, blueprint, hold, lease, step, notes);
            BackfillCampaignStatus projection = project(blueprint, hold, runKey, wasThrottled(campaign));
            DriveOutcome.ChunkActivity activity = step.phase() == CampaignPhase.Loading
                    ? chunkWatch.observe(hold.ledger(), runKey, clock.instant()) : DriveOutcome.ChunkActivity.NONE;
            if (step.settled()) {
                // Nothing moves without a person now: no connection and no lease is held for a settled campaign.
                holds.release(key);
                chunkWatch.forget(runKey);
            }
            return new DriveOutcome.Stepped(notes.steps(), projection, pods.report(), rollback, notes.notes(), activity);
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
            Optional<BackfillCampaignStatus> view = ledgerView(blueprint, hold, campaign, e);
            endSession(key, e);
            return DatabaseFailures.outcome(e, campaign, DATABASE_RETRY, view);
        } catch (KubernetesClientException e) {
            // The Kubernetes API failed (a 5xx, 429, a restart), not the database: the lease and the connections
            // stay; the pass is tried again. Never an EngineError, never a release and re-take of the lease.
            LOG.warnf("pass on campaign %s/%s: Kubernetes API call failed (HTTP %d): %s", namespace, campaign.getMetadata().getName(),
                    e.getCode(), e.getMessage());
            return new DriveOutcome.Waiting("KubernetesApiUnavailable", "a Kubernetes API call failed (HTTP " + e.getCode() + "): "
                    + ApiServerAnswer.message(e), API_RETRY);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt(); // the operator is stopping: the pass ends, its hold is released
            }
            LOG.warnf(e, "pass on campaign %s/%s failed", namespace, campaign.getMetadata().getName());
            Optional<BackfillCampaignStatus> view = ledgerView(blueprint, hold, campaign, e);
            endSession(key, e);
            return new DriveOutcome.Waiting("EngineError", String.valueOf(e.getMessage()), DATABASE_RETRY, view);
        }
    }

    /**
     * Where the ledger says the campaign is after a failed pass: what that pass committed (chunks, a validation)
     * stays committed, and the status should say so. Not asked over a lost connection (it would only wait for the
     * same failure); a ledger that cannot be read leaves the last status as it was.
     */
    private static Optional<BackfillCampaignStatus> ledgerView(CampaignBlueprint blueprint, CampaignHold hold,
                                                               BackfillCampaign campaign, Exception failure) {
        if (ConnectionLoss.is(failure)) {
            return Optional.empty();
        }
        try {
            return Optional.of(project(blueprint, hold, blueprint.identity().runKey(), wasThrottled(campaign)));
        } catch (RuntimeException unreadable) {
            LOG.debugf(unreadable, "campaign %s/%s: the ledger could not be read after the failed pass",
                    campaign.getMetadata().getNamespace(), campaign.getMetadata().getName());
            return Optional.empty();
        }
    }

    /** A lost connection abandons the hold (its server holds ended by the next); any other failure releases it. */
    private void endSession(String key, Exception failure) {
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

    /** A re-queue by annotation: failed chunks get a fresh attempt budget, and the lane pods a fresh failure budget. */
    private static void requeueFailed(KubernetesClient client, BackfillCampaign campaign, CampaignEngine engine,
                                      CampaignLease lease, PodFleet pods, PassNotes notes) {
        String token = OperatorActions.requeueToken(campaign);
        if (token == null) {
            return;
        }
        int requeued = engine.resume(lease);
        pods.removeFailed();
        OperatorActions.markDone(client, campaign, OperatorActions.REQUEUE_FAILED);
        notes.add("FailedChunksRequeued", requeued + " failed chunk(s) re-queued with a fresh attempt budget;"
                + " lane pod failure budget reset (request " + token + ")", false);
    }

    /** A person's approval of the swap, by annotation (issue 28): recorded once in the ledger, then marked done. */
    private static void approve(KubernetesClient client, BackfillCampaign campaign, CampaignHold hold, String runKey,
                                PassNotes notes) {
        String who = OperatorActions.approval(campaign);
        if (who == null) {
            return;
        }
        hold.ledger().approvePublication(runKey, who).ifPresent(a -> notes.add("PublicationApproved",
                "swap approved by " + a.approvedBy() + " at " + a.approvedAt(), false));
        OperatorActions.markDone(client, campaign, OperatorActions.APPROVE);
    }

    private Optional<RollbackReceipt> rollback(KubernetesClient client, BackfillCampaign campaign, CampaignBlueprint blueprint,
                                               CampaignHold hold, CampaignLease lease, StepResult step,
                                               PassNotes notes) {
        LedgerStore ledger = hold.ledger();
        String runKey = blueprint.identity().runKey();
        String reason = OperatorActions.rollbackReason(campaign);
        if (reason != null) {
            BackfillCampaignSpec spec = blueprint.definition().spec();
            if (spec.getPublication().getMode() != PublicationMode.SHADOW_SWAP) {
                notes.add("RollbackRefused", "only a shadow_swap publication can be rolled back;"
                        + " this campaign appended directly to the live table", true);
            } else if (step.phase() != CampaignPhase.HandoffCommitted) {
                notes.add("RollbackRefused", "a rollback needs a published campaign (HandoffCommitted);"
                        + " the phase is " + step.phase() + ": set the annotation again once it is", true);
            } else {
                try {
                    RollbackReceipt receipt = hold.runtime().publisher().rollback(lease, blueprint.artifacts(),
                            spec.getTarget().getTable(), reason, OperatorActions.rollbackAcceptsWrites(campaign));
                    notes.add("RolledBack", blueprint.artifacts().schema() + "." + spec.getTarget().getTable()
                            + " is the previous table again (rollback receipt " + receipt.receiptId() + "): " + reason
                            + (receipt.acceptedWrites() == null ? "" : "; " + receipt.acceptedWrites()), true);
                } catch (PublishedTableWrittenException e) {
                    notes.add("RollbackRefused", e.getMessage(), true);
                }
            }
            OperatorActions.markDone(client, campaign, OperatorActions.ROLLBACK);
        }
        return ledger.rollbackReceipt(runKey);
    }

    /** The last status said the ceiling held the lanes back: the throttle judgement's hysteresis starts from it. */
    private static boolean wasThrottled(BackfillCampaign campaign) {
        return campaign.getStatus() != null && campaign.getStatus().getThrottle() != null
                && campaign.getStatus().getThrottle().throttled();
    }

    /** {@code wasThrottled}: the last status said the ceiling held the lanes back (the judgement's hysteresis). */
    private static BackfillCampaignStatus project(CampaignBlueprint blueprint, CampaignHold hold, String runKey,
                                                  boolean wasThrottled) {
        LedgerStore ledger = hold.ledger();
        BackfillCampaignSpec spec = blueprint.definition().spec();
        CampaignRecord record = ledger.findByRunKey(runKey).orElseThrow();
        io.dpone.backfill.core.ledger.ChunkCounts counts = ledger.counts(runKey, spec.getMaxChunkAttempts());
        BackfillCampaignStatus status = CampaignStatusProjector.withApproval(CampaignStatusProjector.project(spec,
                blueprint.artifacts(), record, counts, ledger.publicationReceipt(runKey), ledger.handoffReceipt(runKey),
                ledger.rollbackReceipt(runKey)), spec, ledger.publicationApproval(runKey));
        status = CampaignStatusProjector.withGroup(status, spec, ledger::groupMembers);
        status = CampaignStatusProjector.withThrottle(status, counts, ledger.throttle(runKey), ledger.claimPause(runKey),
                wasThrottled);
        // The passes after publication (issue 38): bounded counts, the queue and the sync anchor, from the pass ledger.
        BackfillCampaignStatus projected = status;
        return ReconciliationProjection.ledgerOf(spec, hold.runtime().targetConnection())
                .map(passes -> ReconciliationProjection.into(projected, spec, passes, runKey)).orElse(status);
    }
}

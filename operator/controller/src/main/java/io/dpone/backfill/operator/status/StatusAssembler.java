package io.dpone.backfill.operator.status;

import io.dpone.backfill.core.engine.NextAction;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignProgress;
import io.dpone.backfill.core.campaign.PreflightStatus;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.validation.FieldError;
import io.dpone.backfill.operator.driver.DriveOutcome;
import io.dpone.backfill.operator.driver.OperatorActions;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.redaction.CredentialScrubber;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Builds the whole status of a pass from scratch: the engine's bounded projection of the ledger, plus
 * observedGeneration, conditions (stable transition times) and an operator-specific recommended action. Nothing
 * per chunk, nothing unbounded: a campaign of 16,384 chunks has the same status size as one of 1.
 */
public final class StatusAssembler {
    private static final int MAX_ERRORS = 10;
    private static final int MAX_ACTION = 1024;

    private final Clock clock;

    public StatusAssembler(Clock clock) {
        this.clock = clock;
    }

    public BackfillCampaignStatus stepped(BackfillCampaign campaign, BackfillCampaignStatus previous, DriveOutcome.Stepped s) {
        BackfillCampaignStatus status = copy(s.projection());
        CampaignPhase phase = status.getPhase();
        status.setObservedGeneration(campaign.getMetadata().getGeneration());
        freezeRateOutsideLoading(status.getProgress(), phase);
        Degradation degraded = degradation(phase, s.lanes());
        List<CampaignCondition> wanted = new ArrayList<>(CampaignConditions.forPhase(phase, s.step().blockReason(), s.step().message(),
                degraded == null ? null : degraded.reason(), degraded == null ? null : degraded.message()));
        if (s.step().next() instanceof NextAction.AwaitApproval) {
            // A named state to wait for (kubectl wait --for=condition=AwaitingApproval); Reconciling False says why.
            wanted.replaceAll(c -> CampaignConditions.RECONCILING.equals(c.getType())
                    ? ConditionSet.wanted(CampaignConditions.RECONCILING, false, CampaignConditions.AWAITING_APPROVAL,
                    s.step().message()) : c);
            wanted.add(ConditionSet.wanted(CampaignConditions.AWAITING_APPROVAL, true, CampaignConditions.AWAITING_APPROVAL,
                    s.step().message()));
        } else if (campaign.getSpec() != null && campaign.getSpec().getPublication() != null
                && campaign.getSpec().getPublication().approvalMode() == io.dpone.backfill.core.campaign.ApprovalMode.MANUAL) {
            wanted.add(ConditionSet.wanted(CampaignConditions.AWAITING_APPROVAL, false,
                    status.getPublication() != null && status.getPublication().getApprovedBy() != null ? "Approved" : "NotValidated",
                    status.getPublication() != null && status.getPublication().getApprovedBy() != null
                            ? "approved by " + status.getPublication().getApprovedBy() : "not validated yet"));
        }
        if (s.step().next() instanceof NextAction.AwaitGroup) {
            // Validated and waiting for the other members on purpose: Reconciling False says why (kstatus Current).
            wanted.replaceAll(c -> CampaignConditions.RECONCILING.equals(c.getType())
                    ? ConditionSet.wanted(CampaignConditions.RECONCILING, false, CampaignConditions.AWAITING_GROUP,
                    s.step().message()) : c);
            wanted.add(ConditionSet.wanted(CampaignConditions.AWAITING_GROUP, true, CampaignConditions.AWAITING_GROUP,
                    s.step().message()));
        } else if (campaign.getSpec() != null && campaign.getSpec().getPublication() != null
                && campaign.getSpec().getPublication().getGroup() != null) {
            wanted.add(ConditionSet.wanted(CampaignConditions.AWAITING_GROUP, false,
                    published(phase) ? "GroupPublished" : "NotValidated",
                    published(phase)
                            ? "published with group " + campaign.getSpec().getPublication().getGroup().getName()
                            : "not validated yet"));
        }
        if (s.step().next() instanceof NextAction.AwaitWindow) {
            // Healthy and waiting on purpose: Reconciling stays False (kstatus Current), with a reason that says why.
            wanted.replaceAll(c -> CampaignConditions.RECONCILING.equals(c.getType())
                    ? ConditionSet.wanted(CampaignConditions.RECONCILING, false, CampaignConditions.AWAITING_WINDOW,
                    s.step().message()) : c);
        }
        var throttle = status.getThrottle();
        if (throttle != null) {
            wanted.add(CampaignConditions.throttled(throttle));
            if (throttle.throttled() && phase == CampaignPhase.Loading) {
                // The Reason printer column reads Reconciling's reason: while throttled it says why lanes wait.
                wanted.replaceAll(c -> CampaignConditions.RECONCILING.equals(c.getType())
                        ? new CampaignCondition(c.getType(), c.getStatus(), throttle.getReason(), throttle.getMessage(),
                        null, null) : c);
            }
        }
        if (status.getReconciliation() != null) {
            wanted.add(CampaignConditions.caughtUp(status.getReconciliation(), phase));
        }
        // The projection already reads publication.phase rolled_back from the receipt; the condition is ours.
        s.rollback().ifPresent(r -> wanted.add(ConditionSet.wanted(CampaignConditions.ROLLED_BACK, true, "RolledBack", rolledBack(r))));
        status.setConditions(ConditionSet.merge(conditions(previous), wanted, clock.instant(), campaign.getMetadata().getGeneration()));
        status.setRecommendedAction(bounded(degraded != null && CampaignConditions.LANE_POD_REJECTED.equals(degraded.reason())
                ? degraded.message() : recommendedAction(campaign, phase, status, s)));
        return status;
    }

    /** Why lanes are unhealthy while loading, or null: stuck pods first (nothing moves), then replaced failures. */
    static Degradation degradation(CampaignPhase phase, io.dpone.backfill.operator.lanes.LaneReport lanes) {
        if (lanes != null && !lanes.rejected().isEmpty()) {
            // In any phase that wants lanes (they start during preparation too): the cluster refused the pod itself.
            return new Degradation(CampaignConditions.LANE_POD_REJECTED, "the cluster refused lane pod "
                    + String.join("; ", lanes.rejected().stream().limit(2).toList())
                    + "; the operator retries every pass: check spec.lane.resources against the namespace's ResourceQuota"
                    + " and LimitRange, its Pod Security level and the lane ServiceAccount (kubectl describe resourcequota,limitrange"
                    + " in the campaign's namespace)");
        }
        if (phase != CampaignPhase.Loading || lanes == null) {
            return null;
        }
        if (!lanes.stuck().isEmpty()) {
            return new Degradation("LanePodsStuck", "lane pods cannot start: " + String.join(", ", lanes.stuck().stream().limit(4).toList())
                    + "; check spec.lane.image, image pull access and the connection Secrets' keys (jdbcUrl, user, password);"
                    + " Unschedulable: check spec.lane.nodeSelector and spec.lane.resources against the nodes");
        }
        if (lanes.failures() > 0) {
            return new Degradation("LanePodFailures", "lane pods failed and were replaced; budget " + lanes.budget()
                    + " failures (spec.lane.maxPodFailures); see the LanePodReplaced events");
        }
        return null;
    }

    record Degradation(String reason, String message) {
    }

    public BackfillCampaignStatus waiting(BackfillCampaign campaign, BackfillCampaignStatus previous, DriveOutcome.Waiting w) {
        List<CampaignCondition> wanted = new ArrayList<>(CampaignConditions.waiting(conditions(previous), w.reason(), w.message()));
        BackfillCampaignStatus status;
        if (w.ledgerView().isPresent()) {
            // What the ledger still says after a failed pass wins over the last good pass's projection.
            status = copy(w.ledgerView().get());
            freezeRateOutsideLoading(status.getProgress(), status.getPhase());
            if (status.getReconciliation() != null) {
                wanted.add(CampaignConditions.caughtUp(status.getReconciliation(), status.getPhase()));
            }
        } else {
            status = previous == null ? new BackfillCampaignStatus() : copy(previous);
        }
        status.setObservedGeneration(campaign.getMetadata().getGeneration());
        status.setConditions(ConditionSet.merge(conditions(previous), wanted, clock.instant(), campaign.getMetadata().getGeneration()));
        status.setRecommendedAction(bounded(switch (w.reason()) {
            case "SecretNotFound", "SecretInvalid" -> "create or fix the connection Secret: " + w.message();
            case "SecretNotOptedIn" -> "let campaigns use the connection Secret (its owner's decision), or name another: "
                    + w.message();
            case "DatabaseUnavailable", "EngineError" -> "check the database connection; the operator retries: " + w.message();
            case "LeaseHeldElsewhere" -> "stop the other driver of this campaign, or end its database session on the server;"
                    + " this operator takes over as soon as that session is gone";
            default -> "none: the operator retries";
        }));
        return status;
    }

    /** Changed spec or unsupported route: Blocked, ledger fields kept from the previous status as they were. */
    public BackfillCampaignStatus refused(BackfillCampaign campaign, BackfillCampaignStatus previous, DriveOutcome.Refused r) {
        BackfillCampaignStatus status = previous == null ? new BackfillCampaignStatus() : copy(previous);
        status.setPhase(CampaignPhase.Blocked);
        status.setObservedGeneration(campaign.getMetadata().getGeneration());
        status.setConditions(ConditionSet.merge(conditions(previous), CampaignConditions.refused(r.reason(), r.message()),
                clock.instant(), campaign.getMetadata().getGeneration()));
        status.setRecommendedAction(bounded(r.recommendedAction()));
        return status;
    }

    /** Refused by pre-flight: nothing was created; the findings (bounded) say what to fix. */
    public BackfillCampaignStatus preflightRefused(BackfillCampaign campaign, BackfillCampaignStatus previous,
                                                   DriveOutcome.PreflightRefused r) {
        BackfillCampaignStatus status = new BackfillCampaignStatus();
        status.setPhase(CampaignPhase.Blocked);
        status.setRunKey(r.runKey());
        status.setObservedGeneration(campaign.getMetadata().getGeneration());
        status.setPreflight(PreflightStatus.of(r.result()));
        String errors = r.result().errors().stream().limit(3).map(f -> f.code() + ": " + f.message())
                .collect(Collectors.joining("; "));
        status.setConditions(ConditionSet.merge(conditions(previous), CampaignConditions.refused(CampaignConditions.PREFLIGHT_FAILED,
                        "pre-flight found " + r.result().errors().size() + " error(s), nothing was created: " + errors),
                clock.instant(), campaign.getMetadata().getGeneration()));
        String actions = r.result().errors().stream().limit(3).map(f -> f.recommendedAction()).filter(a -> !a.isBlank())
                .collect(Collectors.joining(" "));
        status.setRecommendedAction(bounded("fix what status.preflight.findings names (" + actions + "), then retry: kubectl annotate bfc "
                + campaign.getMetadata().getName() + " -n " + campaign.getMetadata().getNamespace() + " --overwrite "
                + OperatorActions.PREFLIGHT_RETRY + "=$(date +%s)"));
        return status;
    }

    /** Rejected by validation: nothing new was created, so the status holds the verdict and what was planned before. */
    public BackfillCampaignStatus invalid(BackfillCampaign campaign, BackfillCampaignStatus previous, List<FieldError> errors) {
        BackfillCampaignStatus status = new BackfillCampaignStatus();
        status.setPhase(CampaignPhase.Invalid);
        status.setObservedGeneration(campaign.getMetadata().getGeneration());
        if (previous != null) {
            // A planned campaign made invalid (by a lane change, say) stays planned: the CRD's plan rule and the
            // reconciler read the run key (and a refusing pre-flight) from here (ADR 0030).
            status.setRunKey(previous.getRunKey());
            status.setPlanDigest(previous.getPlanDigest());
            status.setConfigDigest(previous.getConfigDigest());
            status.setPreflight(previous.getPreflight());
        }
        String list = errors.stream().limit(MAX_ERRORS).map(FieldError::toString).collect(Collectors.joining("; "))
                + (errors.size() > MAX_ERRORS ? "; and " + (errors.size() - MAX_ERRORS) + " more" : "");
        String message = "invalid campaign (" + errors.size() + " problem" + (errors.size() == 1 ? "" : "s") + "), nothing was created: " + list;
        status.setConditions(ConditionSet.merge(conditions(previous), CampaignConditions.refused(CampaignConditions.INVALID, message),
                clock.instant(), campaign.getMetadata().getGeneration()));
        status.setRecommendedAction(bounded("fix the spec: " + list));
        return status;
    }

    /** Swapped: Published, Reconciling (its passes before the handoff, ADR 0057) or handed off. */
    private static boolean published(CampaignPhase phase) {
        return phase == CampaignPhase.Published || phase == CampaignPhase.Reconciling || phase == CampaignPhase.HandoffCommitted;
    }

    static String recommendedAction(BackfillCampaign campaign, CampaignPhase phase, BackfillCampaignStatus status, DriveOutcome.Stepped s) {
        String name = campaign.getMetadata().getName();
        String ns = campaign.getMetadata().getNamespace();
        if (s.step().next() instanceof NextAction.AwaitApproval) {
            return "validated and waiting for approval: review the campaign, then kubectl backfill publish " + name
                    + " -n " + ns + " (or kubectl annotate bfc " + name + " -n " + ns + " " + OperatorActions.APPROVE
                    + "=<your name>)";
        }
        if (s.step().next() instanceof NextAction.AwaitGroup g) {
            return "nothing to do here: validated; publication group " + g.group() + " swaps when every member is ready;"
                    + " it waits for " + (g.holding().isEmpty() ? "another member" : String.join(", ", g.holding()))
                    + " (kubectl get bfc -o wide shows each campaign's group)";
        }
        if (s.step().next() instanceof NextAction.AwaitWindow w) {
            return "nothing to do: validated; the swap runs when the publication window " + w.window() + " opens ("
                    + w.opensAt() + ")";
        }
        var r = status.getReconciliation();
        if (phase == CampaignPhase.HandoffCommitted && s.rollback().isEmpty() && r != null && r.getQueue() != null && r.getQueue() > 0) {
            // Handed off, but keys someone else wrote wait for a person (issue 38): that comes first.
            return r.getQueue() + " key(s) written in the published table by someone else wait for a decision: backfill"
                    + " reconcile <campaign file> --accept KEY (the source's version) or --keep KEY (the target's), then"
                    + " the next pass converges; " + status.getRecommendedAction();
        }
        return switch (phase) {
            case Suspended -> "set spec.suspend to false to continue";
            case Recoverable -> "read the lane logs (kubectl logs -n " + ns + " -l backfill.dpone.io/campaign=" + name
                    + ") and the chunks' last_error (backfill status), fix the cause, then: kubectl annotate bfc " + name
                    + " -n " + ns + " --overwrite " + OperatorActions.REQUEUE_FAILED + "=$(date +%s)";
            case HandoffCommitted -> s.rollback().isPresent()
                    ? "rolled back: the previous table is live again; start a new campaign with a new backfillId to load again"
                    : status.getRecommendedAction() + (status.getPublication() != null && status.getPublication().getBackupTable() != null
                    ? "; to roll back: kubectl annotate bfc " + name + " -n " + ns + " " + OperatorActions.ROLLBACK + "='<reason>'" : "");
            default -> status.getRecommendedAction();
        };
    }

    private static String rolledBack(RollbackReceipt r) {
        return "rollback receipt " + r.receiptId() + (r.rolledBackAt() == null ? "" : " at " + r.rolledBackAt()) + ": " + r.reason();
    }

    /** rows/s describes loading; outside it the rate is 0 and the ETA is only known when nothing is left. */
    static void freezeRateOutsideLoading(CampaignProgress p, CampaignPhase phase) {
        if (p == null || phase == CampaignPhase.Loading) {
            return;
        }
        p.setRowsPerSecond(0.0);
        if (p.getCommittedChunks() != p.getTotalChunks()) {
            p.setEtaSeconds(null);
        }
    }

    private static List<CampaignCondition> conditions(BackfillCampaignStatus status) {
        return status == null ? List.of() : status.getConditions();
    }

    /** Scrubbed before it is cut, as condition messages are (ConditionSet). */
    private static String bounded(String text) {
        String s = CredentialScrubber.scrub(text);
        return s == null ? null : s.length() > MAX_ACTION ? s.substring(0, MAX_ACTION) + "..." : s;
    }

    /** A deep copy through JSON: the status classes are plain, and a copy never aliases an informer cache. */
    public static BackfillCampaignStatus copy(BackfillCampaignStatus s) {
        return s == null ? null : StatusJson.read(StatusJson.write(s));
    }
}

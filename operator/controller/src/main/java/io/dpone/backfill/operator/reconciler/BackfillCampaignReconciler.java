package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignDefinition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.SpecDefaults;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.validation.FieldError;
import io.dpone.backfill.operator.driver.DriveOutcome;
import io.dpone.backfill.operator.driver.OperatorActions;
import io.dpone.backfill.operator.events.CampaignEvents;
import io.dpone.backfill.operator.kubernetes.ApiServerAnswer;
import io.dpone.backfill.operator.lanes.LaneLabels;
import io.dpone.backfill.operator.lanes.LanePods;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.wiring.Connectors;
import io.dpone.backfill.wiring.UnsupportedTargetException;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A thin controller: observe (the resource, its lane pods), validate (the campaign's own rules, before any I/O),
 * reconcile (one pass on the campaign engine, whose actions become pods), then write the status (a bounded
 * projection of the ledger, only when it changed), events and metrics. It implements no phase, no chunk logic
 * and no SQL: the engine in core does. See src-docs/operator.md for the controller flow.
 */
@ControllerConfiguration(name = BackfillCampaignReconciler.NAME, generationAwareEventProcessing = false)
public class BackfillCampaignReconciler implements Reconciler<BackfillCampaign>, Cleaner<BackfillCampaign> {
    public static final String NAME = "backfillcampaign";
    /** Phases that wait for a person: nothing is asked of the database until the spec or an action annotation changes. */
    static final Set<CampaignPhase> SETTLED = Set.of(CampaignPhase.HandoffCommitted, CampaignPhase.Blocked, CampaignPhase.Recoverable);

    private final OperatorComponents c;

    private static final Logger LOG = Logger.getLogger(BackfillCampaignReconciler.class);
    private final ApiBackoff apiBackoff = new ApiBackoff();

    public BackfillCampaignReconciler(OperatorComponents components) {
        this.c = components;
    }

    @Override
    public List<EventSource<?, BackfillCampaign>> prepareEventSources(EventSourceContext<BackfillCampaign> context) {
        InformerEventSourceConfiguration<Pod> pods = InformerEventSourceConfiguration.from(Pod.class, BackfillCampaign.class)
                .withName("lane-pods")
                .withLabelSelector(LaneLabels.SELECTOR)
                .withNamespacesInheritedFromController()
                .build();
        return List.of(new InformerEventSource<>(pods, context));
    }

    /**
     * One pass; a Kubernetes API failure that ends it (429, 5xx, the API server restarting) reschedules the campaign
     * with back-off ({@link ApiBackoff}) rather than leaving it to JOSDK's bounded retry. The database side has its
     * own handling in the driver; the pass is safe to repeat (status rebuilt from the ledger, pods named per attempt).
     */
    @Override
    public UpdateControl<BackfillCampaign> reconcile(BackfillCampaign campaign, Context<BackfillCampaign> context) {
        String key = campaign.getMetadata().getNamespace() + "/" + campaign.getMetadata().getName();
        try {
            UpdateControl<BackfillCampaign> control = pass(campaign, context);
            apiBackoff.reset(key);
            return control;
        } catch (KubernetesClientException e) {
            Duration wait = apiBackoff.next(key);
            LOG.warnf("pass on campaign %s ended by the Kubernetes API (%s); trying again in %s", key, ApiServerAnswer.describe(e), wait);
            return UpdateControl.<BackfillCampaign>noUpdate().rescheduleAfter(wait);
        }
    }

    private UpdateControl<BackfillCampaign> pass(BackfillCampaign campaign, Context<BackfillCampaign> context) {
        KubernetesClient client = context.getClient();
        LanePods pods = c.lanes().visible(LanePods.of(campaign, context.getSecondaryResources(Pod.class)));
        BackfillCampaignStatus before = c.statusWriter().current(campaign);

        List<FieldError> errors = new ArrayList<>(SpecGate.errors(campaign));
        // The operator's own rule beside the campaign's: lanes run only from images its installer allowed.
        c.laneImages().refusal(campaign.getSpec()).ifPresent(errors::add);
        if (!errors.isEmpty()) {
            c.driver().forget(campaign);
            c.lanes().deleteAll(client, pods.all());
            return finish(client, campaign, before, c.assembler().invalid(campaign, before, errors), List.of(), List.of(),
                    DriveOutcome.ChunkActivity.NONE, null);
        }
        BackfillCampaignSpec normalised = SpecDefaults.apply(campaign.getSpec());
        CampaignBlueprint blueprint = CampaignBlueprint.of(new CampaignDefinition(campaign.getMetadata().getName(),
                campaign.getMetadata().getNamespace(), normalised));
        String runKey = blueprint.identity().runKey();
        // Lanes of another run key belong to a spec this campaign no longer has: they must not go on loading.
        c.lanes().deleteAll(client, pods.notOfRun(runKey));

        DriveOutcome outcome = refusal(before, blueprint);
        if (outcome == null && settledAndIdle(campaign, before, runKey)) {
            return idle(client, campaign, before, pods);
        }
        if (outcome == null) {
            outcome = c.driver().drive(client, campaign, blueprint, pods);
        } else {
            c.driver().forget(campaign);
        }
        if (outcome instanceof DriveOutcome.Stepped s) {
            c.metrics().lanes(campaign.getMetadata().getNamespace(), campaign.getMetadata().getName(), s.lanes());
            Duration next = s.step().settled() ? (pods.active().isEmpty() ? null : c.settings().activePoll()) : clamp(s.step().requeueAfter());
            return finish(client, campaign, before, c.assembler().stepped(campaign, before, s), s.notes(), s.steps(),
                    s.activity(), next);
        }
        if (outcome instanceof DriveOutcome.Waiting w) {
            if ("LeaseLost".equals(w.reason())) {
                c.metrics().campaignLeaseLost(campaign.getMetadata().getNamespace(), campaign.getMetadata().getName());
            }
            return finish(client, campaign, before, c.assembler().waiting(campaign, before, w), List.of(), List.of(),
                    DriveOutcome.ChunkActivity.NONE, w.retryAfter());
        }
        if (outcome instanceof DriveOutcome.PreflightRefused p) {
            return finish(client, campaign, before, c.assembler().preflightRefused(campaign, before, p), List.of(), List.of(),
                    DriveOutcome.ChunkActivity.NONE, null);
        }
        DriveOutcome.Refused r = (DriveOutcome.Refused) outcome;
        return finish(client, campaign, before, c.assembler().refused(campaign, before, r), List.of(), List.of(),
                DriveOutcome.ChunkActivity.NONE, null);
    }

    /** Deleting a campaign removes its lane pods and its hold on the database; data, shadow, backup and ledger stay. */
    @Override
    public DeleteControl cleanup(BackfillCampaign campaign, Context<BackfillCampaign> context) {
        c.driver().forget(campaign);
        c.lanes().deleteAll(context.getClient(), LanePods.of(campaign, context.getSecondaryResources(Pod.class)).all());
        c.statusWriter().forget(campaign);
        c.metrics().forget(campaign.getMetadata().getNamespace(), campaign.getMetadata().getName());
        return DeleteControl.defaultDelete();
    }

    /** Permanent refusals found without the database: a spec whose run key changed, a route with no adapter. */
    private static DriveOutcome refusal(BackfillCampaignStatus before, CampaignBlueprint blueprint) {
        String runKey = blueprint.identity().runKey();
        // A start that pre-flight refused planned nothing: its spec may still change freely.
        boolean planned = before != null && before.getRunKey() != null && !refusedByPreflight(before);
        if (planned && !before.getRunKey().equals(runKey)) {
            return new DriveOutcome.Refused("NewBackfillIdRequired", "the spec changed after the campaign was planned (run key "
                    + before.getRunKey() + " would become " + runKey + "); a planned campaign's plan and policy are immutable",
                    "revert the spec change, or create a new BackfillCampaign with a new backfillId for the changed plan");
        }
        try {
            Connectors.target(blueprint.definition().spec().getTarget().getType());
        } catch (UnsupportedTargetException e) {
            return new DriveOutcome.Refused("UnsupportedTarget", e.getMessage(),
                    "use a target type this build has an adapter for; nothing was created");
        }
        return null;
    }

    private static boolean refusedByPreflight(BackfillCampaignStatus status) {
        return status.getPreflight() != null && PreflightResult.FAILED.equals(status.getPreflight().getResult());
    }

    private boolean settledAndIdle(BackfillCampaign campaign, BackfillCampaignStatus before, String runKey) {
        // A waiting status (another operator's, say) has no phase yet; Set.of(...).contains(null) would throw.
        return before != null && before.getPhase() != null && SETTLED.contains(before.getPhase()) && runKey.equals(before.getRunKey())
                && Objects.equals(before.getObservedGeneration(), campaign.getMetadata().getGeneration())
                && !OperatorActions.anyPending(campaign);
    }

    /** A settled campaign: lanes are drained (deleted once it completed); the database is not asked. */
    private UpdateControl<BackfillCampaign> idle(KubernetesClient client, BackfillCampaign campaign, BackfillCampaignStatus before,
                                                 LanePods pods) {
        // After an operator restart a settled campaign is never driven again: its gauges (phase) come from here.
        c.metrics().record(campaign.getMetadata().getNamespace(), campaign.getMetadata().getName(), before, before,
                DriveOutcome.ChunkActivity.NONE);
        if (before.getPhase() == CampaignPhase.HandoffCommitted) {
            c.lanes().deleteAll(client, pods.all());
            return UpdateControl.noUpdate();
        }
        int active = c.lanes().drain(client, pods);
        UpdateControl<BackfillCampaign> control = UpdateControl.noUpdate();
        return active > 0 ? control.rescheduleAfter(c.settings().activePoll()) : control;
    }

    private UpdateControl<BackfillCampaign> finish(KubernetesClient client, BackfillCampaign campaign, BackfillCampaignStatus before,
                                                   BackfillCampaignStatus after, List<DriveOutcome.Note> notes, List<StepResult> steps,
                                                   DriveOutcome.ChunkActivity activity, Duration reschedule) {
        c.statusWriter().write(client, campaign, after);
        c.events().emit(client, campaign, CampaignEvents.plan(before, after, notes, steps));
        c.metrics().record(campaign.getMetadata().getNamespace(), campaign.getMetadata().getName(), before, after, activity);
        UpdateControl<BackfillCampaign> control = UpdateControl.noUpdate();
        return reschedule == null ? control : control.rescheduleAfter(reschedule);
    }

    private Duration clamp(Duration requeue) {
        Duration max = c.settings().activePoll();
        if (requeue.compareTo(Duration.ofSeconds(1)) < 0) {
            return Duration.ofSeconds(1);
        }
        return requeue.compareTo(max) > 0 ? max : requeue;
    }
}

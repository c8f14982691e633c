package io.dpone.backfill.operator.events;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.operator.driver.DriveOutcome;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.redaction.CredentialScrubber;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Kubernetes Events for people: one per phase transition, one when a blocking or degrading condition appears (or
 * changes its reason), and one per operator action or replaced lane pod. They are derived from the difference
 * between the status before and after a pass, so a pass that changes nothing emits nothing. Failing to emit an
 * Event is logged and never fails a pass. Every message is scrubbed of credentials (ADR 0043).
 */
public final class CampaignEvents {
    private static final Logger LOG = Logger.getLogger(CampaignEvents.class);
    private static final Set<CampaignPhase> WARNING_PHASES = Set.of(CampaignPhase.Blocked, CampaignPhase.Recoverable, CampaignPhase.Invalid);
    private static final int MAX_MESSAGE = 1024;
    private static final String COMPONENT = "backfill-operator";
    /** The reason of the event each reconciliation pass before the handoff emits, with its upserted/deleted/queued. */
    public static final String RECONCILE_PASS_FINISHED = "ReconcilePassFinished";

    private final Clock clock;
    private final String instanceId;
    private final AtomicLong sequence = new AtomicLong();

    public CampaignEvents(Clock clock, String instanceId) {
        this.clock = clock;
        this.instanceId = instanceId;
    }

    public record Planned(String type, String reason, String message) {
    }

    /**
     * The events a pass warrants (pure: tested without a cluster): one per phase transition of the pass's engine
     * steps (or of the status, for passes that did not step), one per condition that turned Blocked or Degraded,
     * one per note.
     */
    public static List<Planned> plan(BackfillCampaignStatus before, BackfillCampaignStatus after, List<DriveOutcome.Note> notes,
                                     List<StepResult> steps) {
        List<Planned> events = new ArrayList<>();
        CampaignPhase was = before == null ? null : before.getPhase();
        CampaignPhase now = after.getPhase();
        CampaignPhase at = was;
        for (StepResult step : steps) {
            if (step.phase() == CampaignPhase.Reconciling) {
                // One event a pass (ADR 0057), its counts in the message; the phase transition says no more.
                events.add(new Planned("Normal", RECONCILE_PASS_FINISHED, step.message()));
                at = step.phase();
            } else if (step.phase() != at) {
                events.add(transition(at, step.phase(), step.message()));
                at = step.phase();
            }
        }
        if (now != null && now != at) {
            events.add(transition(at, now, null));
        }
        for (String type : List.of(CampaignConditions.STALLED, CampaignConditions.DEGRADED)) {
            CampaignCondition next = ConditionSet.find(after.getConditions(), type).orElse(null);
            if (next == null || !ConditionSet.TRUE.equals(next.getStatus())) {
                continue;
            }
            CampaignCondition prev = before == null ? null : ConditionSet.find(before.getConditions(), type).orElse(null);
            boolean appeared = prev == null || !ConditionSet.TRUE.equals(prev.getStatus()) || !Objects.equals(prev.getReason(), next.getReason());
            // Phase events already tell of Recoverable; a condition event adds only a reason of its own.
            if (appeared && !(now != was && next.getReason().equals(now == null ? null : now.name()))) {
                events.add(new Planned("Warning", next.getReason(), next.getMessage()));
            }
        }
        // A group member starting to wait for the others (issue 27) says so once, with the members that hold it.
        CampaignCondition group = ConditionSet.find(after.getConditions(), CampaignConditions.AWAITING_GROUP).orElse(null);
        CampaignCondition groupBefore = before == null ? null
                : ConditionSet.find(before.getConditions(), CampaignConditions.AWAITING_GROUP).orElse(null);
        if (group != null && ConditionSet.TRUE.equals(group.getStatus())
                && (groupBefore == null || !ConditionSet.TRUE.equals(groupBefore.getStatus()))) {
            events.add(new Planned("Normal", CampaignConditions.AWAITING_GROUP, group.getMessage()));
        }
        // Keys someone else wrote in the published table start waiting for a person (issue 38): said once.
        CampaignCondition caught = ConditionSet.find(after.getConditions(), CampaignConditions.CAUGHT_UP).orElse(null);
        CampaignCondition caughtBefore = before == null ? null
                : ConditionSet.find(before.getConditions(), CampaignConditions.CAUGHT_UP).orElse(null);
        if (caught != null && CampaignConditions.KEYS_QUEUED.equals(caught.getReason())
                && (caughtBefore == null || !Objects.equals(caughtBefore.getMessage(), caught.getMessage()))) {
            events.add(new Planned("Warning", CampaignConditions.KEYS_QUEUED, caught.getMessage()));
        }
        notes.forEach(n -> events.add(new Planned(n.warning() ? "Warning" : "Normal", n.reason(), n.message())));
        return events;
    }

    private static Planned transition(CampaignPhase from, CampaignPhase to, String message) {
        return new Planned(WARNING_PHASES.contains(to) ? "Warning" : "Normal", to.name(),
                (from == null ? "" : from + " -> ") + to + (message == null || message.isBlank() ? "" : ": " + message));
    }

    public void emit(KubernetesClient client, BackfillCampaign campaign, List<Planned> events) {
        for (Planned p : events) {
            try {
                client.v1().events().inNamespace(campaign.getMetadata().getNamespace()).resource(build(campaign, p)).create();
            } catch (KubernetesClientException e) {
                LOG.warnf("could not record event %s on %s: %s", p.reason(), campaign.getMetadata().getName(), e.getMessage());
            }
        }
    }

    /**
     * An Event's message: scrubbed of credentials, since Events are read by whoever may list them in the namespace,
     * not only by who may read the Secret (ADR 0043); then bounded, after the scrub, so a cut never leaves part of a
     * credential the scrubber would no longer know.
     */
    static String message(String text) {
        String scrubbed = text == null ? "" : CredentialScrubber.scrub(text);
        return scrubbed.length() > MAX_MESSAGE ? scrubbed.substring(0, MAX_MESSAGE) + "..." : scrubbed;
    }

    private Event build(BackfillCampaign campaign, Planned p) {
        String now = DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
        String message = message(p.message());
        return new EventBuilder()
                .withNewMetadata()
                .withName(campaign.getMetadata().getName() + "." + Long.toHexString(System.currentTimeMillis()) + Long.toHexString(sequence.incrementAndGet()))
                .withNamespace(campaign.getMetadata().getNamespace())
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion(campaign.getApiVersion()).withKind(campaign.getKind())
                .withName(campaign.getMetadata().getName()).withNamespace(campaign.getMetadata().getNamespace())
                .withUid(campaign.getMetadata().getUid())
                .endInvolvedObject()
                .withType(p.type()).withReason(p.reason()).withMessage(message)
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .withNewSource().withComponent(COMPONENT).endSource()
                .withReportingComponent(COMPONENT).withReportingInstance(instanceId)
                .build();
    }
}

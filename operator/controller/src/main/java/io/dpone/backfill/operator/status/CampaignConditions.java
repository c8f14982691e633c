package io.dpone.backfill.operator.status;

import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.BlockReason;

import java.util.ArrayList;
import java.util.List;

import static io.dpone.backfill.operator.status.ConditionSet.wanted;

/**
 * The conditions a pass wants, by situation, following kstatus (what {@code kubectl wait}, Flux and Argo CD read):
 * <ul>
 *     <li>{@value #READY}: True once handed off (HandoffCommitted), False otherwise, with the phase as reason;</li>
 *     <li>{@value #RECONCILING}: True only while the operator retries a transient problem (ADR 0030); healthy work
 *     in flight (Planned to Published) is Reconciling=False with the phase as reason, so kstatus reads the campaign
 *     as Current once its generation is observed;</li>
 *     <li>{@value #STALLED}: True when only a person can move the campaign on (Blocked, Recoverable, Invalid, or
 *     any refusal such as a failed pre-flight), with a reason a person can act on;</li>
 *     <li>{@value #DEGRADED}: True while something is wrong that the operator works around or retries (lane pods
 *     replaced or stuck, a Secret missing, the database unreachable).</li>
 * </ul>
 * Messages carry no counters that change while loading, so a condition only changes when the situation does
 * (progress lives in {@code status.progress}).
 */
public final class CampaignConditions {
    public static final String READY = "Ready";
    public static final String RECONCILING = "Reconciling";
    public static final String STALLED = "Stalled";
    public static final String DEGRADED = "Degraded";
    public static final String ROLLED_BACK = "RolledBack";
    /** The reason of a campaign rejected by validation. */
    public static final String INVALID = "Invalid";
    /** The Degraded condition's reason (and its Event's) when the API server or admission refused a lane pod. */
    public static final String LANE_POD_REJECTED = "LanePodRejected";
    /**
     * A condition of its own while a validated campaign waits for a person to approve its swap, True then (and the
     * Reconciling reason then): {@code kubectl wait --for=condition=AwaitingApproval} waits for it.
     */
    public static final String AWAITING_APPROVAL = "AwaitingApproval";
    /**
     * True while a validated member of a publication group waits for the other members (issue 27); its message
     * names the member tables that hold the group and why (kubectl wait --for=condition=AwaitingGroup).
     */
    public static final String AWAITING_GROUP = "AwaitingGroup";
    /** The Reconciling condition's reason while a validated campaign waits for its publication window. */
    public static final String AWAITING_WINDOW = "AwaitingPublicationWindow";
    /**
     * Present while a rate ceiling or a source guard pause is in force (issue 28): True with reason
     * {@code SourceGuard} while the source guard pauses claims, {@code OutsideLoadWindow} outside the load windows, {@code RateCeiling} while the lanes read at the
     * ceiling (they wait for it), False ({@code BelowCeiling}) while they read below it, Unknown
     * ({@code ByteCeilingUnmeasured}) under a byte ceiling alone, which the status does not measure.
     */
    public static final String THROTTLED = "Throttled";
    /**
     * Present once a reconciliation pass began (issue 38): True ({@code CaughtUp}) when the last pass finished and no
     * key waits; False with {@code KeysQueued} while keys written by someone else wait for a person's decision,
     * {@code PassRunning} while the spec's passes run, {@code PassInterrupted} when a pass was cut short. Not a kstatus
     * condition: a queue that waits for a person never keeps the campaign InProgress.
     */
    public static final String CAUGHT_UP = "CaughtUp";
    public static final String KEYS_QUEUED = "KeysQueued";
    /** The Blocked condition's reason when pre-flight refused a start. */
    public static final String PREFLIGHT_FAILED = "PreflightFailed";

    /** Why only a person can move the campaign on: the Stalled condition's reason and message. */
    public record Stall(String reason, String message) {
    }

    private CampaignConditions() {
    }

    /** A campaign the engine stepped; {@code degradedReason} is null when lanes are healthy. */
    public static List<CampaignCondition> forPhase(CampaignPhase phase, BlockReason blockReason, String engineMessage,
                                                   String degradedReason, String degradedMessage) {
        return of(phase, stallOf(phase, blockReason, engineMessage), degradedReason != null ? degradedReason
                : phase == CampaignPhase.Recoverable ? "Recoverable" : null, degradedReason != null ? degradedMessage : engineMessage);
    }

    /**
     * The conditions of a stepped campaign with an explicit stall (null: none), for a driver that knows a reason of
     * its own (a failed pre-flight, say) rather than one read from the phase.
     */
    public static List<CampaignCondition> of(CampaignPhase phase, Stall stall, String degradedReason, String degradedMessage) {
        List<CampaignCondition> c = new ArrayList<>();
        boolean done = phase == CampaignPhase.HandoffCommitted;
        c.add(done ? wanted(READY, true, phase.name(), "published and handed off: incremental sync may start from the XMin anchor")
                : wanted(READY, false, stall != null ? stall.reason() : phase.name(), "the campaign is " + phase + ", not yet handed off"));
        c.add(stall != null ? wanted(RECONCILING, false, stall.reason(), "waiting for a person: see recommendedAction")
                : switch (phase) {
                    // Healthy work in flight is not "Reconciling": kstatus (kubernetes-sigs/cli-utils
                    // pkg/kstatus/status/generic.go) reads Reconciling=True as InProgress, and a load takes hours, so
                    // Flux's wait (and kubectl wait) would time out on a healthy campaign. The generation is observed
                    // in this very status write; the phase and progress say how far it is; Ready says when done.
                    // Reconciliation passes (ADR 0057) are healthy work too: a pass is not Reconciling=True, ever.
                    case Planned, Prepared, Loading, Validating, Publishing, Published, Reconciling ->
                            wanted(RECONCILING, false, phase.name(), progressing(phase));
                    case Suspended -> wanted(RECONCILING, false, "Suspended", "spec.suspend is true: no new chunk claims; running chunks drain");
                    case HandoffCommitted -> wanted(RECONCILING, false, "Completed", "nothing left to do");
                    default -> wanted(RECONCILING, false, phase.name(), "waiting for a person: see recommendedAction");
                });
        c.add(stall != null ? wanted(STALLED, true, stall.reason(), stall.message()) : notStalled());
        c.add(degradedReason != null ? wanted(DEGRADED, true, degradedReason, degradedMessage) : wanted(DEGRADED, false, "AsExpected", ""));
        return c;
    }

    /** Permanent refusals before or instead of the engine (invalid spec, changed spec, unsupported route, failed pre-flight). */
    public static List<CampaignCondition> refused(String reason, String message) {
        return List.of(
                wanted(READY, false, reason, message),
                wanted(RECONCILING, false, reason, "nothing runs until the campaign is fixed"),
                wanted(STALLED, true, reason, message),
                wanted(DEGRADED, false, "AsExpected", ""));
    }

    /**
     * A transient problem the operator retries: Reconciling says so, Degraded says what is wrong, Ready and Stalled
     * stay as they were.
     */
    public static List<CampaignCondition> waiting(List<CampaignCondition> previous, String reason, String message) {
        List<CampaignCondition> c = new ArrayList<>();
        c.add(ConditionSet.find(previous, READY).orElse(wanted(READY, false, reason, "waiting: " + message)));
        c.add(wanted(RECONCILING, true, reason, "retrying: " + message));
        c.add(ConditionSet.find(previous, STALLED).orElse(notStalled()));
        c.add(wanted(DEGRADED, true, reason, message));
        ConditionSet.find(previous, ROLLED_BACK).ifPresent(c::add);
        ConditionSet.find(previous, THROTTLED).ifPresent(c::add);
        return c;
    }

    /** The Throttled condition of a ceiling in force. */
    public static CampaignCondition throttled(io.dpone.backfill.core.campaign.ThrottleStatus t) {
        String status = t.throttled() ? ConditionSet.TRUE
                : io.dpone.backfill.core.campaign.ThrottleStatus.BYTE_CEILING_UNMEASURED.equals(t.getReason())
                ? ConditionSet.UNKNOWN : ConditionSet.FALSE;
        return new CampaignCondition(THROTTLED, status, t.getReason(), t.getMessage(), null, null);
    }

    /** The CaughtUp condition of the status's reconciliation section. */
    public static CampaignCondition caughtUp(io.dpone.backfill.core.campaign.ReconciliationStatus r, CampaignPhase phase) {
        if (Boolean.TRUE.equals(r.getCaughtUp())) {
            return phase == CampaignPhase.Reconciling
                    ? wanted(CAUGHT_UP, false, "PassRunning", "pass " + r.getSyncAnchorFromPass() + " caught up; the"
                    + " spec's passes decide whether another runs before the handoff")
                    : wanted(CAUGHT_UP, true, "CaughtUp", "the published table caught up with the source at anchor "
                    + r.getSyncAnchor() + " (reconciliation pass " + r.getSyncAnchorFromPass() + ")");
        }
        if (r.getQueue() != null && r.getQueue() > 0) {
            return wanted(CAUGHT_UP, false, KEYS_QUEUED, r.getQueue() + " key(s) written in the published table by someone"
                    + " else after publication wait for a decision (backfill reconcile --accept KEY | --keep KEY)");
        }
        return phase == CampaignPhase.Reconciling
                ? wanted(CAUGHT_UP, false, "PassRunning", "a reconciliation pass runs before the handoff")
                : wanted(CAUGHT_UP, false, "PassInterrupted", "the last reconciliation pass did not finish: run"
                + " backfill reconcile again to finish it");
    }

    /** The stall a phase means by itself: Blocked and Recoverable wait for a person; the others do not. */
    static Stall stallOf(CampaignPhase phase, BlockReason blockReason, String engineMessage) {
        return switch (phase) {
            case Blocked -> new Stall(blockReason == null ? "Blocked" : blockReason.code(), engineMessage);
            case Recoverable -> new Stall("Recoverable", engineMessage);
            case Invalid -> new Stall(INVALID, engineMessage);
            default -> null;
        };
    }

    private static CampaignCondition notStalled() {
        return wanted(STALLED, false, "NotStalled", "");
    }

    static String progressing(CampaignPhase phase) {
        return switch (phase) {
            case Planned -> "planned: capturing the XMin anchor and preparing the load table";
            case Prepared -> "prepared: lanes start next";
            case Loading -> "lanes are loading chunks";
            case Validating -> "validating the loaded table exactly";
            case Publishing -> "publishing: swapping the shadow in";
            case Published -> "published: committing the XMin handoff";
            case Reconciling -> "published: reconciliation passes bring it to the source before the handoff";
            default -> phase.name();
        };
    }
}

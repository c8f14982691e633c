package io.dpone.backfill.operator.status;

import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.core.campaign.CampaignPhase;

import java.util.ArrayList;
import java.util.List;

import static io.dpone.backfill.operator.status.ConditionSet.wanted;

/**
 * The conditions a pass wants, by situation. Messages carry no counters that change while loading, so a condition
 * only changes when the situation does (progress lives in {@code status.progress}).
 */
public final class CampaignConditions {
    public static final String READY = "Ready";
    public static final String PROGRESSING = "Progressing";
    public static final String DEGRADED = "Degraded";
    public static final String BLOCKED = "Blocked";
    public static final String ROLLED_BACK = "RolledBack";
    public static final String INVALID = "Invalid";
    /** The Blocked condition's reason when pre-flight refused a start. */
    public static final String PREFLIGHT_FAILED = "PreflightFailed";

    private CampaignConditions() {
    }

    /** A campaign the engine stepped; {@code degradedReason} is null when lanes are healthy. */
    public static List<CampaignCondition> forPhase(CampaignPhase phase, String engineMessage, String degradedReason,
                                                   String degradedMessage) {
        List<CampaignCondition> c = new ArrayList<>();
        boolean done = phase == CampaignPhase.HandoffCommitted;
        c.add(wanted(READY, done, phase.name(), done ? "published and handed off: incremental sync may start from the XMin anchor"
                : "the campaign is " + phase + ", not yet handed off"));
        c.add(switch (phase) {
            case Planned, Prepared, Loading, Validating, Publishing, Published -> wanted(PROGRESSING, true, phase.name(), progressing(phase));
            case Suspended -> wanted(PROGRESSING, false, "Suspended", "spec.suspend is true: no new chunk claims; running chunks drain");
            case HandoffCommitted -> wanted(PROGRESSING, false, "Completed", "nothing left to do");
            default -> wanted(PROGRESSING, false, phase.name(), "waiting for a person: see recommendedAction");
        });
        if (phase == CampaignPhase.Recoverable) {
            c.add(wanted(DEGRADED, true, "Recoverable", engineMessage));
        } else if (degradedReason != null) {
            c.add(wanted(DEGRADED, true, degradedReason, degradedMessage));
        } else {
            c.add(wanted(DEGRADED, false, "AsExpected", ""));
        }
        c.add(phase == CampaignPhase.Blocked ? wanted(BLOCKED, true, blockedReason(engineMessage), engineMessage)
                : wanted(BLOCKED, false, "NotBlocked", ""));
        return c;
    }

    /** Permanent refusals before or instead of the engine: invalid spec, changed spec, unsupported route. */
    public static List<CampaignCondition> refused(String reason, String message) {
        return List.of(
                wanted(READY, false, reason, message),
                wanted(PROGRESSING, false, reason, "nothing runs until the campaign is fixed"),
                wanted(DEGRADED, false, "AsExpected", ""),
                wanted(BLOCKED, true, reason, message));
    }

    /** A transient problem: the previous conditions stay, Degraded says what is wrong. */
    public static List<CampaignCondition> waiting(List<CampaignCondition> previous, String reason, String message) {
        List<CampaignCondition> c = new ArrayList<>();
        c.add(ConditionSet.find(previous, READY).orElse(wanted(READY, false, reason, "waiting: " + message)));
        c.add(ConditionSet.find(previous, PROGRESSING).orElse(wanted(PROGRESSING, false, reason, "waiting: " + message)));
        c.add(wanted(DEGRADED, true, reason, message));
        c.add(ConditionSet.find(previous, BLOCKED).orElse(wanted(BLOCKED, false, "NotBlocked", "")));
        ConditionSet.find(previous, ROLLED_BACK).ifPresent(c::add);
        return c;
    }

    static String progressing(CampaignPhase phase) {
        return switch (phase) {
            case Planned -> "planned: capturing the XMin anchor and preparing the load table";
            case Prepared -> "prepared: lanes start next";
            case Loading -> "lanes are loading chunks";
            case Validating -> "validating the loaded table exactly";
            case Publishing -> "publishing: swapping the shadow in";
            case Published -> "published: committing the XMin handoff";
            default -> phase.name();
        };
    }

    /** A reason a person can act on, from the engine's blocking message. */
    static String blockedReason(String message) {
        String m = message == null ? "" : message;
        if (m.contains("validation failed")) {
            return "ValidationFailed";
        }
        if (m.contains("written after preparation")) {
            return "LiveTargetWritten";
        }
        if (m.contains("changed shape") || m.contains("changed since preparation")) {
            return "SchemaDrift";
        }
        if (m.contains("does not exist")) {
            return "TableMissing";
        }
        if (m.contains("columns missing")) {
            return "TargetColumnsMissing";
        }
        if (m.contains("XMin anchor")) {
            return "AnchorUnusable";
        }
        if (m.contains("publication refused") || m.contains("shadow") || m.contains("stamp")) {
            return "ArtifactOwnership";
        }
        return "Blocked";
    }
}

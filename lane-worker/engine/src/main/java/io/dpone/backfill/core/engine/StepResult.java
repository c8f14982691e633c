package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.CampaignPhase;

import java.time.Duration;
import java.util.List;

/**
 * The outcome of one engine step: the phase after it, actions for the driver, when to step again, and a message and
 * typed next action for people. {@code settled} means no further step can make progress without a person (done,
 * blocked, recoverable); a blocked result names its {@link BlockReason}. Built through the named factories, which say what each result means.
 */
public record StepResult(CampaignPhase phase, List<EngineAction> actions, Duration requeueAfter, boolean settled,
                         String message, NextAction next, BlockReason blockReason) {
    public StepResult {
        actions = List.copyOf(actions);
    }

    /** The campaign moved (or stays) in a working phase; step again after {@code requeueAfter}. */
    public static StepResult progressed(CampaignPhase phase, String message, Duration requeueAfter) {
        return new StepResult(phase, List.of(), requeueAfter, false, message, NextAction.NONE, null);
    }

    /** Loading: {@code lanes} lanes should run; step again after {@code poll}. */
    public static StepResult loading(int lanes, String message, Duration poll) {
        return new StepResult(CampaignPhase.Loading, List.of(new EngineAction.RunLanes(lanes)), poll, false, message, NextAction.NONE, null);
    }

    /** Not settled, but lanes must stop (suspension): no claims until the next step says otherwise. */
    public static StepResult pausing(CampaignPhase phase, String message, String stopReason, Duration requeueAfter, NextAction next) {
        return new StepResult(phase, List.of(new EngineAction.StopLanes(stopReason)), requeueAfter, false, message, next, null);
    }

    /** Only a person moves the campaign on now (or it is done): lanes stop for {@code stopReason}. */
    public static StepResult settled(CampaignPhase phase, String message, String stopReason, Duration requeueAfter, NextAction next) {
        return new StepResult(phase, List.of(new EngineAction.StopLanes(stopReason)), requeueAfter, true, message, next, null);
    }

    /** Blocked for {@code reason}: only a person moves the campaign on; lanes stop. */
    public static StepResult blocked(BlockReason reason, String message, Duration requeueAfter, NextAction next) {
        return new StepResult(CampaignPhase.Blocked, List.of(new EngineAction.StopLanes(message)), requeueAfter, true, message,
                next, reason);
    }

    /** The same result, with lanes told to stop. */
    public StepResult stoppingLanes(String reason) {
        return new StepResult(phase, List.of(new EngineAction.StopLanes(reason)), requeueAfter, settled, message, next, blockReason);
    }

    public boolean wantsLanes() {
        return actions.stream().anyMatch(a -> a instanceof EngineAction.RunLanes);
    }

    public boolean stopsLanes() {
        return actions.stream().anyMatch(a -> a instanceof EngineAction.StopLanes);
    }
}

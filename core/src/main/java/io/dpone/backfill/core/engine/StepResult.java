package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.CampaignPhase;

import java.time.Duration;
import java.util.List;

/**
 * The outcome of one engine step: the phase after it, actions for the driver, when to step again, and a message and
 * next action for people. {@code settled} means no further step can make progress without a person (done, blocked,
 * recoverable).
 */
public record StepResult(CampaignPhase phase, List<EngineAction> actions, Duration requeueAfter, boolean settled,
                         String message, String recommendedAction) {
    public StepResult {
        actions = List.copyOf(actions);
    }

    public boolean wantsLanes() {
        return actions.stream().anyMatch(a -> a instanceof EngineAction.RunLanes);
    }

    public boolean stopsLanes() {
        return actions.stream().anyMatch(a -> a instanceof EngineAction.StopLanes);
    }
}

package io.dpone.backfill.core.engine;

/** What the driver (the CLI's local runner or the operator) must do after a step; the engine never does it itself. */
public sealed interface EngineAction {
    /** Keep {@code lanes} lane processes (or pods) running. */
    record RunLanes(int lanes) implements EngineAction {
    }

    /** Stop lanes: they claim nothing new; running chunks get a bounded drain. */
    record StopLanes(String reason) implements EngineAction {
    }
}

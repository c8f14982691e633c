package io.dpone.backfill.core.driver;

import java.io.IOException;
import java.util.Optional;

/**
 * The lanes a host runs for a campaign: process groups for the CLI, pods for the operator (ADR 0007, 0050). The
 * loop says how many lanes run and when they stop; the host decides how a lane starts, is replaced, and is counted
 * against the failure budget ({@code spec.lane.maxPodFailures}).
 */
public interface LaneFleet {
    /** The failure budget is spent: {@code reason} says so to a person (counts, where the lanes' logs are). */
    record BudgetSpent(String reason) {
    }

    /**
     * Keeps {@code lanes} lanes running: starts missing ones, replaces failed ones within the budget, leaves lanes at
     * or past {@code lanes} alone (they stop themselves between chunks, ADR 0042). Empty while the budget lasts.
     */
    Optional<BudgetSpent> keep(int lanes) throws IOException;

    /** Lanes see the ledger's stop request and finish their chunk; those still running after the drain are ended. */
    void drain();

    /** The campaign is complete: no lane is needed again and nothing of them is kept for a resume. */
    void finish();
}

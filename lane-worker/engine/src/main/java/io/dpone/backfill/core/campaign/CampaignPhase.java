package io.dpone.backfill.core.campaign;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The campaign state machine's phases (src-docs/architecture.md section 4) and, in one table, the transitions
 * between them.
 */
public enum CampaignPhase {
    Planned, Prepared, Loading, Validating, Publishing, Published, HandoffCommitted, Recoverable, Blocked, Suspended,
    /** Rejected by validation before any side effect; not a ledger phase. */
    Invalid,
    /**
     * Published, running {@code spec.reconcile}'s passes before the handoff (ADR 0057): how status and steps name it;
     * the ledger holds Published meanwhile, so no ledger learns a new phase.
     */
    Reconciling;

    private static final Map<CampaignPhase, EnumSet<CampaignPhase>> NEXT = new EnumMap<>(CampaignPhase.class);

    static {
        NEXT.put(Planned, EnumSet.of(Prepared, Blocked));
        NEXT.put(Prepared, EnumSet.of(Loading, Suspended, Blocked));
        NEXT.put(Loading, EnumSet.of(Validating, Recoverable, Suspended, Blocked));
        NEXT.put(Suspended, EnumSet.of(Loading));
        NEXT.put(Recoverable, EnumSet.of(Loading));
        // Direct mode has no swap: a validated direct load is Published at once.
        NEXT.put(Validating, EnumSet.of(Publishing, Published, Blocked));
        NEXT.put(Publishing, EnumSet.of(Published, Blocked));
        NEXT.put(Published, EnumSet.of(HandoffCommitted, Blocked));
        NEXT.put(HandoffCommitted, EnumSet.noneOf(CampaignPhase.class));
        NEXT.put(Blocked, EnumSet.noneOf(CampaignPhase.class));
        NEXT.put(Invalid, EnumSet.noneOf(CampaignPhase.class));
        NEXT.put(Reconciling, EnumSet.noneOf(CampaignPhase.class));
    }

    /** Planned or Prepared: the campaign is still being prepared, and lanes started already wait (ADR 0023). */
    public boolean preparing() {
        return this == Planned || this == Prepared;
    }

    /** The phases this one may move to; empty for the terminal ones. */
    public Set<CampaignPhase> next() {
        return EnumSet.copyOf(NEXT.get(this));
    }

    public boolean canMoveTo(CampaignPhase to) {
        return NEXT.get(this).contains(to);
    }
}

package io.dpone.backfill.core.campaign;

/** The campaign state machine's phases (DESIGN.md section 4). */
public enum CampaignPhase {
    Planned, Prepared, Loading, Validating, Publishing, Published, HandoffCommitted, Recoverable, Blocked, Suspended,
    /** Rejected by validation before any side effect; not a ledger phase. */
    Invalid
}

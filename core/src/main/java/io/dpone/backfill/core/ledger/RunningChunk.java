package io.dpone.backfill.core.ledger;

/**
 * A chunk a lane holds right now: its estimated rows (null when the ledger has none) and how long it has run by
 * the database clock. Rows copied so far are not in the ledger until the chunk commits, so progress is inferred.
 */
public record RunningChunk(Long estimatedRows, double secondsRunning) {
}

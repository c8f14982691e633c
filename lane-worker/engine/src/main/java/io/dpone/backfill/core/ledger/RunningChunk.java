package io.dpone.backfill.core.ledger;

/**
 * A chunk a lane holds right now: its estimated rows (null when the ledger has none), how long it has run by the
 * database clock, and the rows its lane reported copied at its last lease renewal (uncommitted, so they are not in
 * rows loaded; they lag by up to one renewal interval).
 */
public record RunningChunk(Long estimatedRows, double secondsRunning, long rowsCopied) {
}

package io.dpone.backfill.core.reconcile;

/**
 * A key a pass would not write because someone else wrote the published table there after publication.
 *
 * @param key      the row's key in the target's canonical text, e.g. {@code (42)}: what {@code --accept} takes
 * @param reason   why it was queued, as a person acts on it
 * @param pass     the pass that queued it (last)
 * @param decision null while undecided
 */
public record QueuedKey(String key, String reason, int pass, KeyDecision decision) {
}

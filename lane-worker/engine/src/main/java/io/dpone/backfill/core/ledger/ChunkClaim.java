package io.dpone.backfill.core.ledger;

/**
 * A lane's claim on one chunk. {@code owner} and {@code epoch} fence every later write: a write made with a stale
 * epoch updates zero rows and is rolled back.
 */
public record ChunkClaim(String runKey, int chunkId, String owner, long epoch, int attempt) {
}

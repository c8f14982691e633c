package io.dpone.backfill.core.ledger;

import java.time.Instant;

/**
 * One chunk row of the ledger as read; bounds are text in the plan's notation (null = open); {@code rowsEstimated}
 * is the source's estimate from preparation (null before estimates existed).
 */
public record ChunkRecord(int chunkId, String lowerBound, String upperBound, ChunkState state, int attempts,
                          String owner, long epoch, Instant leaseExpires, boolean leaseExpired,
                          long rowsExtracted, long rowsLoaded, String lastError, Long rowsEstimated) {
}

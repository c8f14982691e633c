package io.dpone.backfill.core.plan;

import java.math.BigInteger;

/**
 * One immutable chunk: keys k with {@code lower <= k < upper}. A null bound is open (no limit on that side), which
 * is how the first and last chunks reach the ends of the domain.
 */
public record ChunkRange(int id, BigInteger lowerInclusive, BigInteger upperExclusive) {
    public boolean contains(BigInteger key) {
        return (lowerInclusive == null || key.compareTo(lowerInclusive) >= 0)
                && (upperExclusive == null || key.compareTo(upperExclusive) < 0);
    }
}

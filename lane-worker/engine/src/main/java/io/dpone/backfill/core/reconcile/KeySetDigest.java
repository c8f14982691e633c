package io.dpone.backfill.core.reconcile;

import java.math.BigInteger;

/**
 * A set of keys summarised so two databases can compare it without shipping it: how many keys, and the sum of a
 * 60-bit hash of each key's canonical text. A sum, unlike XOR, lets no two equal keys cancel, and any order or split
 * of the rows gives the same digest (RECONCILE-NOTES section 2, item 10).
 */
public record KeySetDigest(long count, BigInteger sum) {
    public KeySetDigest {
        if (count < 0 || sum == null || sum.signum() < 0) {
            throw new IllegalArgumentException("a key set digest is a non-negative count and sum, got " + count + ", " + sum);
        }
    }
}

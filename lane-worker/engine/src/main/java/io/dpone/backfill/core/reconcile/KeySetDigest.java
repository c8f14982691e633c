package io.dpone.backfill.core.reconcile;

import java.math.BigInteger;

/**
 * A set of keys summarised so two databases can compare it without shipping it: how many keys, and the exact sum of
 * a 64-bit hash of each key's canonical text (the hash is the connector's, the same on both sides of a route). A sum,
 * unlike XOR, lets no two equal keys cancel, and any order or split of the rows gives the same digest
 * (RECONCILE-NOTES section 2, item 10).
 */
public record KeySetDigest(long count, BigInteger sum) {
    public KeySetDigest {
        if (count < 0 || sum == null) {
            throw new IllegalArgumentException("a key set digest is a count of keys and a sum, got " + count + ", " + sum);
        }
    }
}

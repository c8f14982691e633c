package io.dpone.backfill.core.reconcile;

import java.util.BitSet;

/**
 * A set of (range, bucket) pairs: where the two sides' keys differ. One bit a pair ({@link KeyBuckets#COUNT} per
 * range), so even a plan of a thousand ranges whose every bucket differs costs half a megabyte.
 */
public final class RangeBuckets {
    private final BitSet pairs = new BitSet();

    public void add(int range, int bucket) {
        if (range < 0 || bucket < 0 || bucket >= KeyBuckets.COUNT) {
            throw new IllegalArgumentException("no key bucket " + bucket + " of range " + range);
        }
        pairs.set(range * KeyBuckets.COUNT + bucket);
    }

    public boolean contains(int range, int bucket) {
        return pairs.get(range * KeyBuckets.COUNT + bucket);
    }

    /** How many pairs. */
    public int size() {
        return pairs.cardinality();
    }

    public boolean isEmpty() {
        return pairs.isEmpty();
    }

    /** Each pair as one number, {@code range * COUNT + bucket}, ascending: the form a query filters on. */
    public java.util.stream.IntStream numbers() {
        return pairs.stream();
    }

    /** Whether the pairs are so many that filtering by them saves little over reading every key (half or more). */
    public boolean most(int ranges) {
        return (long) size() * 2 >= (long) ranges * KeyBuckets.COUNT;
    }
}

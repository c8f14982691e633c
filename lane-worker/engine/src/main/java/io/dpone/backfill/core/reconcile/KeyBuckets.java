package io.dpone.backfill.core.reconcile;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A range's keys digested per bucket of their hash ({@value #COUNT} buckets, a key's bucket the low bits of the same
 * hash the digest sums): comparing two ranges' buckets names the few buckets whose keys differ, and only their keys
 * are shipped and compared (data-diff's segment bisection, in one step). Sparse: an empty bucket is absent.
 */
public record KeyBuckets(Map<Integer, KeySetDigest> digests) {
    /** Enough that deletes spread evenly at 1 in 400 rows of a 60,000-row range touch a few percent of its keys. */
    public static final int COUNT = 4096;

    public KeyBuckets {
        digests = Map.copyOf(digests);
        for (int bucket : digests.keySet()) {
            if (bucket < 0 || bucket >= COUNT) {
                throw new IllegalArgumentException("key bucket " + bucket + " is outside 0.." + (COUNT - 1));
            }
        }
    }

    /** The buckets whose keys differ between the two sides, in order; empty when the key sets agree. */
    public Set<Integer> differing(KeyBuckets other) {
        Set<Integer> all = new TreeSet<>(digests.keySet());
        all.addAll(other.digests.keySet());
        all.removeIf(b -> java.util.Objects.equals(digests.get(b), other.digests.get(b)));
        return all;
    }

    /** How many keys in all. */
    public long count() {
        return digests.values().stream().mapToLong(KeySetDigest::count).sum();
    }

    public static KeyBuckets of(Map<Integer, KeySetDigest> digests) {
        return new KeyBuckets(new TreeMap<>(digests));
    }
}

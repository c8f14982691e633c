package io.dpone.backfill.core.reconcile;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;

/**
 * Key digests per (range, bucket) computed in Java: the count and the exact sum of the keys' 64-bit hashes, as the
 * source's digests give them (ADR 0054), for a target that reads its keys back instead of hashing them itself. The
 * sum is kept in 128 bits, so no count of keys a table can hold overflows it.
 */
public final class KeyDigestSums {
    private final Map<Integer, long[]> pairs = new HashMap<>();

    /** Adds a key with {@code hash} in range {@code range}. */
    public void add(int range, long hash) {
        long[] d = pairs.computeIfAbsent(range * KeyBuckets.COUNT + RecordKeyText.bucket(hash), k -> new long[3]);
        d[0]++;
        long low = d[1] + hash;
        // A 128-bit two's complement sum: the hash sign-extended into the high word, plus the low word's carry.
        d[2] += (hash >> 63) + (Long.compareUnsigned(low, d[1]) < 0 ? 1 : 0);
        d[1] = low;
    }

    /** The pairs whose count or sum differ from {@code other}'s, an absent pair counting as zero keys. */
    public RangeBuckets differing(KeyDigestSums other) {
        RangeBuckets differing = new RangeBuckets();
        java.util.Set<Integer> all = new java.util.HashSet<>(pairs.keySet());
        all.addAll(other.pairs.keySet());
        for (int pair : all) {
            long[] mine = pairs.getOrDefault(pair, new long[3]);
            long[] theirs = other.pairs.getOrDefault(pair, new long[3]);
            if (!java.util.Arrays.equals(mine, theirs)) {
                differing.add(pair / KeyBuckets.COUNT, pair % KeyBuckets.COUNT);
            }
        }
        return differing;
    }

    /** Adds the digest of a (range, bucket) pair as another side reported it: {@code count} keys summing to {@code sum}. */
    public void addDigest(int range, int bucket, long count, BigInteger sum) {
        long[] d = pairs.computeIfAbsent(range * KeyBuckets.COUNT + bucket, k -> new long[3]);
        BigInteger total = sum(d).add(sum);
        d[0] += count;
        d[1] = total.longValue();
        d[2] = total.shiftRight(64).longValue();
    }

    /** The exact sum of the pair's hashes. */
    public BigInteger sum(int range, int bucket) {
        return sum(pairs.getOrDefault(range * KeyBuckets.COUNT + bucket, new long[3]));
    }

    /** How many keys the pair holds. */
    public long count(int range, int bucket) {
        return pairs.getOrDefault(range * KeyBuckets.COUNT + bucket, new long[3])[0];
    }

    private static BigInteger sum(long[] d) {
        return BigInteger.valueOf(d[2]).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(d[1])));
    }
}

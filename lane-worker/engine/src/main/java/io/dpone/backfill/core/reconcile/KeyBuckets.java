package io.dpone.backfill.core.reconcile;

/**
 * Keys are compared per bucket of their hash ({@value #COUNT} buckets a range, a key's bucket the low bits of the same
 * hash the digests sum): comparing the two sides' buckets names the few whose keys differ, and only their keys are
 * shipped and compared (data-diff's segment bisection, in one step).
 */
public final class KeyBuckets {
    /** Enough that deletes spread evenly at 1 in 400 rows of a 60,000-row range touch a few percent of its keys. */
    public static final int COUNT = 4096;

    private KeyBuckets() {
    }
}

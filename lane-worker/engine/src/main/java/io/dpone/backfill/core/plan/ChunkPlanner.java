package io.dpone.backfill.core.plan;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.ChunkSpec;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts the chunk column's domain into {@code buckets} exact, contiguous ranges. Boundary i is
 * {@code floor(i * span / buckets)} above the domain's start, computed in exact integers so no key is lost or
 * counted twice at a boundary. The first chunk is open below and the last open above: for uuid because the top
 * of the 128-bit space has no literal, for integer because keys may fall outside the planned bounds.
 *
 * <p>Physical chunks are block ranges of the source heap, so their bounds need the heap's size, which only
 * preparation measures: {@link #plan} gives a physical campaign its unresolved plan (the chunk count, no bounds:
 * what the run key covers), and {@link #physical} the resolved one from the block count preparation recorded once in
 * the ledger (ADR 0015).
 */
public final class ChunkPlanner {
    private ChunkPlanner() {
    }

    public static ChunkPlan plan(ChunkSpec normalised) {
        int buckets = normalised.getBuckets();
        if (normalised.getKind() == ChunkKind.PHYSICAL) {
            List<ChunkRange> unresolved = new ArrayList<>(buckets);
            for (int i = 0; i < buckets; i++) {
                unresolved.add(new ChunkRange(i, null, null));
            }
            return new ChunkPlan(ChunkKind.PHYSICAL, null, null, null, unresolved);
        }
        BigInteger start;
        BigInteger span;
        if (normalised.getKind() == ChunkKind.UUID) {
            start = BigInteger.ZERO;
            span = UuidKeys.SPACE;
        } else {
            start = BigInteger.valueOf(normalised.getLowerBound());
            span = BigInteger.valueOf(normalised.getUpperBound()).subtract(start).add(BigInteger.ONE);
        }
        if (span.compareTo(BigInteger.valueOf(buckets)) < 0) {
            throw new IllegalArgumentException("more buckets (" + buckets + ") than keys in the planned range (" + span + ")");
        }
        List<ChunkRange> chunks = new ArrayList<>(buckets);
        BigInteger n = BigInteger.valueOf(buckets);
        BigInteger lower = null;
        for (int i = 0; i < buckets; i++) {
            BigInteger upper = i == buckets - 1 ? null
                    : start.add(span.multiply(BigInteger.valueOf(i + 1)).divide(n));
            chunks.add(new ChunkRange(i, lower, upper));
            lower = upper;
        }
        Long lowerBound = normalised.getKind() == ChunkKind.INTEGER ? normalised.getLowerBound() : null;
        Long upperBound = normalised.getKind() == ChunkKind.INTEGER ? normalised.getUpperBound() : null;
        return new ChunkPlan(normalised.getKind(), normalised.getColumn(), lowerBound, upperBound, chunks);
    }

    /**
     * Block ranges over {@code [0, infinity)}: chunk i covers blocks {@code floor(i * blocks / buckets)} up to (not
     * including) the next boundary; the first starts at block 0 and the last is open above, so blocks the heap grows
     * by while loading belong to it. With fewer blocks than buckets some ranges are empty, which is harmless.
     */
    public static ChunkPlan physical(int buckets, long blocks) {
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be at least 1, not " + buckets);
        }
        if (blocks < 0) {
            throw new IllegalArgumentException("a heap has no negative size: " + blocks + " blocks");
        }
        BigInteger n = BigInteger.valueOf(buckets);
        BigInteger size = BigInteger.valueOf(blocks);
        List<ChunkRange> chunks = new ArrayList<>(buckets);
        BigInteger lower = BigInteger.ZERO;
        for (int i = 0; i < buckets; i++) {
            BigInteger upper = i == buckets - 1 ? null : size.multiply(BigInteger.valueOf(i + 1)).divide(n);
            chunks.add(new ChunkRange(i, lower, upper));
            lower = upper;
        }
        return new ChunkPlan(ChunkKind.PHYSICAL, null, null, null, chunks);
    }

    /**
     * The plan lanes read: the spec's plan for key-range kinds; for physical, the block ranges over the heap that
     * preparation measured, refused when the ledger holds no measurement (the campaign was not prepared).
     */
    public static ChunkPlan resolve(ChunkSpec normalised, HeapExtent heap) {
        if (normalised.getKind() != ChunkKind.PHYSICAL) {
            return plan(normalised);
        }
        if (heap == null) {
            throw new IllegalStateException("physical chunks need the heap's size recorded at preparation, and the"
                    + " ledger holds none: the campaign was not prepared");
        }
        return physical(normalised.getBuckets(), heap.blocks());
    }
}

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
 */
public final class ChunkPlanner {
    private ChunkPlanner() {
    }

    public static ChunkPlan plan(ChunkSpec normalised) {
        int buckets = normalised.getBuckets();
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
}

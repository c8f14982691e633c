package io.dpone.backfill.core.plan;

import io.dpone.backfill.core.campaign.ChunkKind;

import java.math.BigInteger;
import java.util.List;

/**
 * The immutable chunk plan: contiguous ranges over the chunk column's whole domain (or, for physical chunks, over
 * the heap's block numbers), in order. It is the retry
 * authority of a campaign; it never changes once the ledger holds it.
 */
public record ChunkPlan(ChunkKind kind, String column, Long lowerBound, Long upperBound, List<ChunkRange> chunks) {
    public ChunkPlan {
        chunks = List.copyOf(chunks);
    }

    public int size() {
        return chunks.size();
    }

    public ChunkRange chunk(int id) {
        return chunks.get(id);
    }

    /**
     * False only for a physical plan before preparation measured the heap: its chunks have no bounds yet and must
     * never be read (a range with no bounds would select the whole table).
     */
    public boolean resolved() {
        return kind != ChunkKind.PHYSICAL || chunks.isEmpty() || chunks.get(0).lowerInclusive() != null;
    }

    /** Bound as text in the kind's own notation (a UUID, a decimal integer or block number); null when open. */
    public String boundText(BigInteger bound) {
        if (bound == null) {
            return null;
        }
        return kind == ChunkKind.UUID ? UuidKeys.toText(bound) : bound.toString();
    }

    /** The chunk that holds {@code key}; a plan covers the whole domain, so there always is exactly one. */
    public ChunkRange locate(BigInteger key) {
        int lo = 0;
        int hi = chunks.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            BigInteger lower = chunks.get(mid).lowerInclusive();
            if (lower != null && key.compareTo(lower) >= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return chunks.get(lo);
    }
}

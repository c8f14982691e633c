package io.dpone.backfill.core.lane;

/**
 * Current shape digests of the source table, the load table and the reviewed live target, compared with what
 * preparation recorded in the ledger before every chunk.
 */
public interface ShapeProbe {
    String sourceDigest();

    String loadTableDigest();

    /** The live target's full shape (columns, constraints, indexes), as {@code ShadowPublisher.liveShape}. */
    String liveTargetDigest();
}

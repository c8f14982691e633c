package io.dpone.backfill.core.lane;

/** Current shape digests of the source table and the load table, compared with the ledger before every chunk. */
public interface ShapeProbe {
    String sourceDigest();

    String loadTableDigest();
}

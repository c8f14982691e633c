package io.dpone.backfill.core.plan;

import java.util.Objects;

/**
 * What preparation measured of the source heap for physical chunks, recorded once in the ledger: its size in blocks
 * (the plan's bounds follow from it and the bucket count) and its storage identity, an opaque token that changes
 * when the table is rewritten (VACUUM FULL, CLUSTER, TRUNCATE, pg_repack swap, dropped and recreated). Block numbers
 * address the planned rows only while the storage identity is the one recorded (ADR 0015).
 */
public record HeapExtent(long blocks, String storage) {
    public HeapExtent {
        if (blocks < 0) {
            throw new IllegalArgumentException("a heap has no negative size: " + blocks + " blocks");
        }
        Objects.requireNonNull(storage, "storage");
    }
}

package io.dpone.backfill.core.ledger;

/** A chunk's state in the ledger. Only a fenced commit moves a chunk to COMMITTED, and nothing moves it back. */
public enum ChunkState {
    PENDING, RUNNING, COMMITTED, FAILED;

    public String dbValue() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static ChunkState fromDb(String value) {
        return valueOf(value.toUpperCase(java.util.Locale.ROOT));
    }
}

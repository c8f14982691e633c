package io.dpone.backfill.core.lane;

/** The result of one chunk attempt. */
public record ChunkOutcome(Kind kind, long rowsExtracted, long rowsLoaded, String detail) {
    public enum Kind {
        /** Rows, receipt and ledger transition committed together. */
        COMMITTED,
        /** A receipt already exists: an earlier attempt committed; the ledger row is repaired from it. */
        ALREADY_RECEIPTED,
        /** The fence failed (lease lost or taken over): everything was rolled back. */
        LEASE_LOST
    }

    public static ChunkOutcome committed(long extracted, long loaded) {
        return new ChunkOutcome(Kind.COMMITTED, extracted, loaded, "");
    }

    public static ChunkOutcome alreadyReceipted() {
        return new ChunkOutcome(Kind.ALREADY_RECEIPTED, 0, 0, "receipt exists");
    }

    public static ChunkOutcome leaseLost(String detail) {
        return new ChunkOutcome(Kind.LEASE_LOST, 0, 0, detail);
    }
}

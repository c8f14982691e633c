package io.dpone.backfill.core.verify;

import io.dpone.backfill.core.digest.ChunkDigest;

/**
 * What {@code verify} found for one chunk (ADR 0018).
 *
 * @param receipt            the digest the lane recorded in the chunk's receipt, null when it recorded none
 * @param sourceNow          the digest of the chunk's source rows read again now
 * @param published          the digest of the published rows that fall in the chunk; null for physical chunks,
 *                           whose rows the published table cannot locate by block
 * @param changedSinceAnchor source rows of the chunk written at or after the XMin anchor, counted only when the
 *                           source differs from the receipt (else 0)
 * @param reason             one sentence a person can act on; empty when equal
 */
public record ChunkVerdict(int chunkId, Outcome outcome, ChunkDigest receipt, ChunkDigest sourceNow, ChunkDigest published,
                           long changedSinceAnchor, String reason) {
    public enum Outcome {
        /** receipt, source and published table agree (physical: source and receipt agree). */
        EQUAL,
        /** the published table does not hold what the lane loaded, or the source changed in a way xmin does not show */
        DIFFERS,
        /** the source changed since the anchor; the difference is the incremental pass's to carry, not corruption */
        CHANGED_SINCE_ANCHOR,
        /** the receipt was written before receipts carried digests: nothing to compare against */
        NO_DIGEST;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}

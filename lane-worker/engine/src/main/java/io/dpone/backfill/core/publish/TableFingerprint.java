package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.digest.ChunkDigest;

import java.util.Objects;

/**
 * The content of a table at one moment: its row count and an order-independent hash over every row's values.
 * Two fingerprints differ when any committed insert, update or delete happened between them (short of a hash
 * collision); see ADR 0008 for why content, not a statistics counter, is the evidence.
 * <p>
 * Two kinds exist, and only fingerprints of one kind compare: the target's own hash of every row (its SQL, a plain
 * number), and the sum of the rows' content digests (ADR 0018) that the lanes' receipts recorded, which needs no
 * scan of the table (ADR 0022, {@code rowdigest-v1:} and 32 hex digits).
 */
public record TableFingerprint(long rows, String hash) {
    private static final String ROW_DIGEST = "rowdigest-v1:";

    public TableFingerprint {
        Objects.requireNonNull(hash, "hash");
    }

    /** The fingerprint of exactly the rows {@code digest} summed: their count and their full-row hashes' sum. */
    public static TableFingerprint ofRowDigest(ChunkDigest digest) {
        return new TableFingerprint(digest.rows(), ROW_DIGEST + digest.rowHashHex());
    }

    /** Whether this is a sum of row content digests, which only a digest of the table's rows can be compared with. */
    public boolean fromRowDigests() {
        return hash.startsWith(ROW_DIGEST);
    }

    /** {@code rows:hash}, the form kept in the ledger. */
    public String encoded() {
        return rows + ":" + hash;
    }

    public static TableFingerprint decode(String encoded) {
        if (encoded == null) {
            return null;
        }
        int colon = encoded.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("not a table fingerprint: " + encoded);
        }
        return new TableFingerprint(Long.parseLong(encoded.substring(0, colon)), encoded.substring(colon + 1));
    }

    /** What happened between {@code earlier} and this, for a person: counts and whether contents differ. */
    public String changeSince(TableFingerprint earlier) {
        long delta = rows - earlier.rows;
        String counts = earlier.rows + " row(s) then, " + rows + " now";
        if (delta > 0) {
            return counts + ": at least " + delta + " row(s) inserted";
        }
        if (delta < 0) {
            return counts + ": at least " + (-delta) + " row(s) deleted";
        }
        return counts + ": the same count, but at least 1 row was inserted, updated or deleted (contents differ)";
    }

    /** Rows that differ at least: the count difference, or 1 when only contents changed. */
    public long changedRowsSince(TableFingerprint earlier) {
        return equals(earlier) ? 0 : Math.max(1, Math.abs(rows - earlier.rows));
    }
}

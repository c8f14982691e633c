package io.dpone.backfill.core.verify;

/**
 * The first row where what the target stored differs from what the source holds, as a person acts on it.
 *
 * @param key    the row's key, {@code (id)=(42)} style, in the canonical form both sides digest
 * @param column the differing column, or null when the row is missing on one side
 * @param read   the value read from the source (canonical text), or null when the source has no such row
 * @param stored the value the target stored (canonical text), or null when the target has no such row
 */
public record ContentDifference(String key, String column, String read, String stored) {

    public String describe() {
        if (stored == null) {
            return "key " + key + " is in the source but not stored in the target";
        }
        if (read == null) {
            return "key " + key + " is stored in the target but not in the source";
        }
        return "key " + key + ", column " + column + ": read " + read + " from the source, stored as " + stored;
    }
}

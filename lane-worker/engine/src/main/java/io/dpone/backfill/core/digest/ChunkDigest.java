package io.dpone.backfill.core.digest;

/**
 * The content digest of a set of rows (ADR 0018): the row count, the sum of the rows' key hashes and the sum of the
 * rows' full-row hashes, each sum two 64-bit halves modulo 2^64. Sums do not depend on row order and add up: a
 * table's digest is the sum of its chunks' digests. Stored in the chunk receipt as {@link #wire()}.
 */
public record ChunkDigest(long rows, long keyHigh, long keyLow, long rowHigh, long rowLow) {
    public static final ChunkDigest EMPTY = new ChunkDigest(0, 0, 0, 0, 0);
    private static final String VERSION = "v1";

    public ChunkDigest plus(ChunkDigest other) {
        return new ChunkDigest(rows + other.rows, keyHigh + other.keyHigh, keyLow + other.keyLow,
                rowHigh + other.rowHigh, rowLow + other.rowLow);
    }

    /** Same rows, same keys (by hash), different content in at least one row. */
    public boolean sameKeys(ChunkDigest other) {
        return rows == other.rows && keyHigh == other.keyHigh && keyLow == other.keyLow;
    }

    /** {@code v1:<rows>:<keys, 32 hex>:<rows, 32 hex>}. */
    public String wire() {
        return VERSION + ":" + rows + ":" + hex(keyHigh) + hex(keyLow) + ":" + rowHashHex();
    }

    /** The sum of the full-row hashes as 32 hex digits, as {@link #wire()} writes it. */
    public String rowHashHex() {
        return hex(rowHigh) + hex(rowLow);
    }

    /** A digest a receipt recorded, or null when it recorded none (a receipt from before ADR 0018). */
    public static ChunkDigest fromWire(String wire) {
        if (wire == null) {
            return null;
        }
        String[] parts = wire.split(":");
        if (parts.length != 4 || !VERSION.equals(parts[0]) || parts[2].length() != 32 || parts[3].length() != 32) {
            throw new IllegalArgumentException("not a content digest: " + wire);
        }
        return new ChunkDigest(Long.parseLong(parts[1]),
                Long.parseUnsignedLong(parts[2].substring(0, 16), 16), Long.parseUnsignedLong(parts[2].substring(16), 16),
                Long.parseUnsignedLong(parts[3].substring(0, 16), 16), Long.parseUnsignedLong(parts[3].substring(16), 16));
    }

    private static String hex(long v) {
        String s = Long.toHexString(v);
        return "0".repeat(16 - s.length()) + s;
    }

    @Override
    public String toString() {
        return wire();
    }
}

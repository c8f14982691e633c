package io.dpone.backfill.core.digest;

/**
 * Content digests of many chunks at once, one slot a chunk (plans go up to 16,384 chunks): what {@code verify}
 * accumulates while it streams a published table once and maps each row to its chunk. Five longs a slot.
 */
public final class DigestTable {
    private final long[] rows;
    private final long[] sums;

    public DigestTable(int slots) {
        this.rows = new long[slots];
        this.sums = new long[slots * 4];
    }

    public int size() {
        return rows.length;
    }

    void add(int slot, long keyHigh, long keyLow, long rowHigh, long rowLow) {
        rows[slot]++;
        int i = slot * 4;
        sums[i] += keyHigh;
        sums[i + 1] += keyLow;
        sums[i + 2] += rowHigh;
        sums[i + 3] += rowLow;
    }

    public ChunkDigest digest(int slot) {
        int i = slot * 4;
        return new ChunkDigest(rows[slot], sums[i], sums[i + 1], sums[i + 2], sums[i + 3]);
    }

    /** Adds {@code other}'s slots to these: the digests of two parts of one table, read apart, summed. */
    public DigestTable plus(DigestTable other) {
        if (other.rows.length != rows.length) {
            throw new IllegalArgumentException("a table of " + other.rows.length + " slots cannot add to one of " + rows.length);
        }
        for (int slot = 0; slot < rows.length; slot++) {
            rows[slot] += other.rows[slot];
        }
        for (int i = 0; i < sums.length; i++) {
            sums[i] += other.sums[i];
        }
        return this;
    }

    /** The sum of every slot: the whole table's digest. */
    public ChunkDigest total() {
        ChunkDigest total = ChunkDigest.EMPTY;
        for (int slot = 0; slot < rows.length; slot++) {
            total = total.plus(digest(slot));
        }
        return total;
    }
}

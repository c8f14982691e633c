package io.dpone.backfill.core.lane;

/**
 * A row's size for a byte ceiling (issue 28): the bytes of its COPY form when rows move as COPY, else an estimate
 * of its decoded values (text and binary by length, anything else as eight bytes), close to what a bulk load sends.
 */
final class RowSize {
    private static final int FIXED_WIDTH = 8;

    private RowSize() {
    }

    static long of(ChunkRows rows, boolean decoded) {
        if (!decoded) {
            return rows.copyBytes().length;
        }
        long size = 0;
        for (Object v : rows.values()) {
            if (v instanceof CharSequence text) {
                size += text.length();
            } else if (v instanceof byte[] raw) {
                size += raw.length;
            } else if (v != null) {
                size += FIXED_WIDTH;
            }
        }
        return size;
    }
}

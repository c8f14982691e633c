package io.dpone.backfill.postgres;

import java.util.Arrays;

/**
 * The frame of PostgreSQL's binary COPY format ({@code COPY ... (FORMAT binary)}): an 11-byte signature, a flags
 * word and a header extension before the first tuple, and a 16-bit -1 after the last. Tuples between them are the
 * same bytes on both sides, so a lane can pass them through untouched when the column types are identical.
 */
public final class PostgresBinaryCopy {
    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0};
    /** Signature, no flags (no OIDs), no header extension: what the sink sends before the first tuple. */
    public static final byte[] HEADER = Arrays.copyOf(SIGNATURE, SIGNATURE.length + 8);
    /** The file trailer: a tuple field count of -1. */
    public static final byte[] TRAILER = {(byte) 0xff, (byte) 0xff};

    private PostgresBinaryCopy() {
    }

    /** The length of the header at the start of the stream's first message; fails on anything but a binary COPY. */
    public static int headerLength(byte[] first) {
        if (first.length < SIGNATURE.length + 8 || !Arrays.equals(first, 0, SIGNATURE.length, SIGNATURE, 0, SIGNATURE.length)) {
            throw new IllegalStateException("the source's COPY stream does not start with the binary COPY signature");
        }
        int flags = int32(first, SIGNATURE.length);
        if ((flags & 0xffff0000) != 0 || (flags & (1 << 16)) != 0) {
            throw new IllegalStateException("binary COPY header has flags this reader does not know: " + Integer.toHexString(flags));
        }
        int extension = int32(first, SIGNATURE.length + 4);
        return SIGNATURE.length + 8 + extension;
    }

    /** The 16-bit field count a tuple starts with (-1 for the trailer). */
    public static int fieldCount(byte[] message, int offset) {
        if (message.length - offset < 2) {
            throw new IllegalStateException("binary COPY message too short for a tuple: " + (message.length - offset) + " bytes");
        }
        return (short) (((message[offset] & 0xff) << 8) | (message[offset + 1] & 0xff));
    }

    private static int int32(byte[] b, int at) {
        return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
    }
}

package io.dpone.backfill.source.postgres.binary;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.UUID;

/**
 * Decoders of the fixed-width big-endian send formats: integers, floats, bool and uuid; and the big-endian reads
 * they share with the lanes' digest of binary COPY tuples.
 */
public final class FixedWidthDecoders {
    // One load per integer: lanes run C1 only, which neither merges byte loads nor inlines a big-endian view's
    // conversion as well as a little-endian view plus reverseBytes (measured, ADR 0028).
    private static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static final ColumnDecoder INT2 = (b, off, len) -> {
        expectLength("int2", 2, len);
        return (short) int16(b, off);
    };
    static final ColumnDecoder INT4 = (b, off, len) -> {
        expectLength("int4", 4, len);
        return int32(b, off);
    };
    static final ColumnDecoder INT8 = (b, off, len) -> {
        expectLength("int8", 8, len);
        return int64(b, off);
    };
    static final ColumnDecoder FLOAT4 = (b, off, len) -> {
        expectLength("float4", 4, len);
        return Float.intBitsToFloat(int32(b, off));
    };
    static final ColumnDecoder FLOAT8 = (b, off, len) -> {
        expectLength("float8", 8, len);
        return Double.longBitsToDouble(int64(b, off));
    };
    static final ColumnDecoder BOOL = (b, off, len) -> {
        expectLength("bool", 1, len);
        return b[off] != 0;
    };
    static final ColumnDecoder UUID_DECODER = (b, off, len) -> {
        expectLength("uuid", 16, len);
        return new UUID(int64(b, off), int64(b, off + 8));
    };

    private FixedWidthDecoders() {
    }

    static void expectLength(String type, int expected, int actual) throws BinaryCopyFormatException {
        if (actual != expected) {
            throw new BinaryCopyFormatException(type + " field of " + actual + " bytes, expected " + expected);
        }
    }

    static int int16(byte[] b, int off) {
        return (short) (((b[off] & 0xff) << 8) | (b[off + 1] & 0xff));
    }

    /** The big-endian int at {@code off}. */
    public static int int32(byte[] b, int off) {
        return Integer.reverseBytes((int) LE32.get(b, off));
    }

    /** The big-endian long at {@code off}. */
    public static long int64(byte[] b, int off) {
        return Long.reverseBytes((long) LE64.get(b, off));
    }
}

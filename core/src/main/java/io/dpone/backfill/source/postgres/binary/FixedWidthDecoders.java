package io.dpone.backfill.source.postgres.binary;

import java.util.UUID;

/** Decoders of the fixed-width big-endian send formats: integers, floats, bool and uuid. */
final class FixedWidthDecoders {
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

    static int int32(byte[] b, int off) {
        return ((b[off] & 0xff) << 24) | ((b[off + 1] & 0xff) << 16) | ((b[off + 2] & 0xff) << 8) | (b[off + 3] & 0xff);
    }

    static long int64(byte[] b, int off) {
        return ((long) int32(b, off) << 32) | (int32(b, off + 4) & 0xffffffffL);
    }
}

package io.dpone.backfill.source.postgres.binary;

/**
 * Turns one non-NULL field of a binary COPY tuple into its Java value. The bytes belong to the reader and are
 * overwritten by the next field, so a decoder that keeps bytes must copy them.
 */
@FunctionalInterface
public interface ColumnDecoder {
    Object decode(byte[] bytes, int offset, int length) throws BinaryCopyFormatException;
}

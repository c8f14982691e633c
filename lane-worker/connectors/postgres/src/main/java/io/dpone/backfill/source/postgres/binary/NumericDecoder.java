package io.dpone.backfill.source.postgres.binary;

import io.dpone.backfill.source.SpecialValue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * numeric_send: int16 ndigits, int16 weight, int16 sign, int16 dscale, then ndigits base-10000 digits, the first
 * worth 10000^weight. The result carries exactly the display scale PostgreSQL sends (so 0.00 stays 0.00).
 */
final class NumericDecoder implements ColumnDecoder {
    static final NumericDecoder INSTANCE = new NumericDecoder();

    private static final int POSITIVE = 0x0000;
    private static final int NEGATIVE = 0x4000;
    private static final int NAN = 0xC000;
    private static final int PLUS_INFINITY = 0xD000;
    private static final int MINUS_INFINITY = 0xF000;
    private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000);

    private NumericDecoder() {
    }

    @Override
    public Object decode(byte[] b, int off, int len) throws BinaryCopyFormatException {
        if (len < 8) {
            throw new BinaryCopyFormatException("numeric field of " + len + " bytes, shorter than its 8-byte header");
        }
        int ndigits = FixedWidthDecoders.int16(b, off) & 0xffff;
        int weight = FixedWidthDecoders.int16(b, off + 2);
        int sign = FixedWidthDecoders.int16(b, off + 4) & 0xffff;
        int dscale = FixedWidthDecoders.int16(b, off + 6) & 0xffff;
        switch (sign) {
            case NAN:
                return SpecialValue.NAN;
            case PLUS_INFINITY:
                return SpecialValue.POSITIVE_INFINITY;
            case MINUS_INFINITY:
                return SpecialValue.NEGATIVE_INFINITY;
            case POSITIVE:
            case NEGATIVE:
                break;
            default:
                throw new BinaryCopyFormatException("numeric field with unknown sign 0x" + Integer.toHexString(sign));
        }
        if (len != 8 + 2 * ndigits) {
            throw new BinaryCopyFormatException("numeric field of " + len + " bytes for " + ndigits + " digits");
        }
        BigInteger unscaled = digits(b, off + 8, ndigits);
        if (sign == NEGATIVE) {
            unscaled = unscaled.negate();
        }
        // The last digit is worth 10000^(weight - ndigits + 1); a BigDecimal scale counts decimal places the other way.
        BigDecimal value = new BigDecimal(unscaled, -4 * (weight - ndigits + 1));
        try {
            return value.setScale(dscale, RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            throw new BinaryCopyFormatException("numeric field has digits beyond its display scale " + dscale);
        }
    }

    private static BigInteger digits(byte[] b, int off, int ndigits) throws BinaryCopyFormatException {
        // Up to four base-10000 digits fit a long; wider values accumulate in a BigInteger.
        long small = 0;
        BigInteger big = null;
        for (int i = 0; i < ndigits; i++) {
            int digit = FixedWidthDecoders.int16(b, off + 2 * i);
            if (digit < 0 || digit >= 10_000) {
                throw new BinaryCopyFormatException("numeric digit " + digit + " outside 0..9999");
            }
            if (big == null && i < 4) {
                small = small * 10_000 + digit;
            } else {
                if (big == null) {
                    big = BigInteger.valueOf(small);
                }
                big = big.multiply(TEN_THOUSAND).add(BigInteger.valueOf(digit));
            }
        }
        return big == null ? BigInteger.valueOf(small) : big;
    }
}

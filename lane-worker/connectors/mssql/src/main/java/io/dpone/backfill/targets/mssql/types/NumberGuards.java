package io.dpone.backfill.targets.mssql.types;

import java.math.BigDecimal;

/**
 * Value guards of numbers. SQL Server's float and real have no NaN or infinities and, as documented, no subnormal
 * values; decimal(p,s) holds p - s integer digits and s decimal places, and the driver would round extra places
 * half-up, so a value with more non-zero places is refused rather than rounded.
 */
final class NumberGuards {
    static final ValueGuard FINITE_NUMERIC = new ValueGuard("SQL Server decimal has no NaN, -Infinity or Infinity",
            value -> value instanceof BigDecimal);

    static final ValueGuard FINITE_FLOAT = new ValueGuard("SQL Server float and real have no NaN, -Infinity or Infinity",
            value -> value instanceof Number number && Double.isFinite(number.doubleValue()));

    /** Documented range of real: 0 and magnitudes 1.18E-38..3.40E+38. */
    static final ValueGuard REAL_RANGE = new ValueGuard(
            "real holds 0 and magnitudes from 1.18E-38 to 3.40E+38 (no subnormal values)",
            value -> value instanceof Float f && (f == 0.0f || Math.abs(f) >= Float.MIN_NORMAL));

    /** Documented range of float: 0 and magnitudes 2.23E-308..1.79E+308. */
    static final ValueGuard FLOAT_RANGE = new ValueGuard(
            "float holds 0 and magnitudes from 2.23E-308 to 1.79E+308 (no subnormal values)",
            value -> value instanceof Number number && (number.doubleValue() == 0.0
                    || Math.abs(number.doubleValue()) >= Double.MIN_NORMAL));

    private NumberGuards() {
    }

    static ValueGuard integerDigits(int precision, int scale) {
        int allowed = precision - scale;
        return new ValueGuard("decimal(" + precision + "," + scale + ") holds at most " + allowed + " integer digits",
                value -> value instanceof BigDecimal number && integerDigits(number) <= allowed);
    }

    static ValueGuard decimalPlaces(int precision, int scale) {
        return new ValueGuard("decimal(" + precision + "," + scale + ") keeps " + scale
                + " decimal places; a value with more non-zero places would be rounded, so it is refused",
                value -> value instanceof BigDecimal number && decimalPlaces(number) <= scale);
    }

    /** Digits before the point, 0 for a pure fraction such as 0.5. */
    static int integerDigits(BigDecimal number) {
        if (number.signum() == 0) {
            return 0;
        }
        return Math.max(0, number.precision() - number.scale());
    }

    /** Places after the point up to the last non-zero digit: 1.50 has 1. */
    static int decimalPlaces(BigDecimal number) {
        if (number.signum() == 0) {
            return 0;
        }
        return Math.max(0, number.stripTrailingZeros().scale());
    }
}

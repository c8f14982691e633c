package io.dpone.backfill.source.postgres.binary;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * float4/float8 text as PostgreSQL 12+ prints it with extra_float_digits >= 1: the shortest decimal that reads back
 * as the same value (Ryu), closest to the exact value on a tie of length; fixed notation for decimal exponents
 * -4..14 (float4: -4..5), else d.ddde+XX. Computed exactly with BigDecimal, because Java 17's Double.toString is
 * not always shortest.
 */
final class ShortestFloatText {
    private static final BigDecimal TWO = BigDecimal.valueOf(2);

    private ShortestFloatText() {
    }

    static String ofDouble(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d) || d == 0) {
            return special(d, Double.doubleToRawLongBits(d) < 0);
        }
        double abs = Math.abs(d);
        BigDecimal exact = new BigDecimal(abs);
        BigDecimal below = new BigDecimal(Math.nextDown(abs));
        BigDecimal above = abs == Double.MAX_VALUE ? exact.add(new BigDecimal(Math.ulp(abs))) : new BigDecimal(Math.nextUp(abs));
        boolean evenMantissa = (Double.doubleToRawLongBits(abs) & 1) == 0;
        BigDecimal shortest = shortest(exact, below, above, evenMantissa, 17);
        return format(d < 0, shortest, 15);
    }

    static String ofFloat(float f) {
        if (Float.isNaN(f) || Float.isInfinite(f) || f == 0) {
            return special(f, Float.floatToRawIntBits(f) < 0);
        }
        float abs = Math.abs(f);
        BigDecimal exact = new BigDecimal(abs);
        BigDecimal below = new BigDecimal(Math.nextDown(abs));
        BigDecimal above = abs == Float.MAX_VALUE ? exact.add(new BigDecimal(Math.ulp(abs))) : new BigDecimal(Math.nextUp(abs));
        boolean evenMantissa = (Float.floatToRawIntBits(abs) & 1) == 0;
        BigDecimal shortest = shortest(exact, below, above, evenMantissa, 9);
        return format(f < 0, shortest, 6);
    }

    private static String special(double d, boolean negative) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return negative ? "-Infinity" : "Infinity";
        }
        return negative ? "-0" : "0";
    }

    /**
     * The fewest significant digits whose value lies in the rounding interval (midpoints to the neighbours,
     * inclusive when the mantissa is even, as round-half-even parsing reads it back).
     */
    private static BigDecimal shortest(BigDecimal exact, BigDecimal below, BigDecimal above, boolean inclusive, int maxDigits) {
        BigDecimal low = exact.add(below).divide(TWO);
        BigDecimal high = exact.add(above).divide(TWO);
        for (int digits = 1; digits < maxDigits; digits++) {
            BigDecimal down = exact.round(new MathContext(digits, RoundingMode.DOWN));
            BigDecimal up = exact.round(new MathContext(digits, RoundingMode.UP));
            boolean downFits = within(down, low, high, inclusive);
            boolean upFits = within(up, low, high, inclusive);
            if (downFits && upFits) {
                return exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
            }
            if (downFits) {
                return down;
            }
            if (upFits) {
                return up;
            }
        }
        return exact.round(new MathContext(maxDigits, RoundingMode.HALF_EVEN));
    }

    private static boolean within(BigDecimal candidate, BigDecimal low, BigDecimal high, boolean inclusive) {
        int fromLow = candidate.compareTo(low);
        int toHigh = candidate.compareTo(high);
        return inclusive ? fromLow >= 0 && toHigh <= 0 : fromLow > 0 && toHigh < 0;
    }

    private static String format(boolean negative, BigDecimal value, int fixedBelowExponent) {
        BigDecimal stripped = value.stripTrailingZeros();
        String digits = stripped.unscaledValue().toString();
        int exponent = digits.length() - 1 - stripped.scale();
        StringBuilder out = new StringBuilder(24);
        if (negative) {
            out.append('-');
        }
        if (exponent >= -4 && exponent < fixedBelowExponent) {
            return out.append(stripped.toPlainString()).toString();
        }
        out.append(digits.charAt(0));
        if (digits.length() > 1) {
            out.append('.').append(digits, 1, digits.length());
        }
        int magnitude = Math.abs(exponent);
        return out.append('e').append(exponent < 0 ? '-' : '+').append(magnitude < 10 ? "0" : "").append(magnitude).toString();
    }
}

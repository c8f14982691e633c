package io.dpone.backfill.source.postgres.binary;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * float4/float8 text as PostgreSQL 12+ prints it with extra_float_digits >= 1: PostgreSQL's Ryu, built with
 * STRICTLY_SHORTEST 0, picks the fewest digits strictly inside the rounding interval (never its midpoint bounds,
 * so 1e23 prints as 9.999999999999999e+22), the candidate closest to the exact value among those; fixed notation
 * for decimal exponents -4..14 (float4: -4..5), else d.ddde+XX. Computed exactly with BigDecimal, because Java
 * 17's Double.toString is neither always shortest nor bound-exclusive.
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
        BigDecimal shortest = shortest(exact, below, above, significantDigits(Double.toString(abs)), 17);
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
        BigDecimal shortest = shortest(exact, below, above, significantDigits(Float.toString(abs)), 9);
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
     * The fewest significant digits whose value lies strictly between the midpoints to the neighbours. Fitting is
     * monotone in the digit count (a fitting k-digit value narrows to a fitting k+1-digit one), so the search starts
     * at the length Java's own round-trip text has, which is shortest or nearly so, and walks from there.
     */
    private static BigDecimal shortest(BigDecimal exact, BigDecimal below, BigDecimal above, int start, int maxDigits) {
        BigDecimal low = exact.add(below).divide(TWO);
        BigDecimal high = exact.add(above).divide(TWO);
        int digits = Math.max(1, Math.min(start, maxDigits));
        BigDecimal best = candidate(exact, low, high, digits);
        while (best == null && digits < maxDigits) {
            best = candidate(exact, low, high, ++digits);
        }
        if (best == null) {
            return exact.round(new MathContext(maxDigits, RoundingMode.HALF_EVEN));
        }
        while (digits > 1) {
            BigDecimal shorter = candidate(exact, low, high, digits - 1);
            if (shorter == null) {
                break;
            }
            best = shorter;
            digits--;
        }
        return best;
    }

    /** Of the two {@code digits}-long neighbours of the exact value, the one strictly inside (low, high), the closer if both. */
    private static BigDecimal candidate(BigDecimal exact, BigDecimal low, BigDecimal high, int digits) {
        BigDecimal down = exact.round(new MathContext(digits, RoundingMode.DOWN));
        BigDecimal up = exact.round(new MathContext(digits, RoundingMode.UP));
        boolean downFits = down.compareTo(low) > 0 && down.compareTo(high) < 0;
        boolean upFits = up.compareTo(low) > 0 && up.compareTo(high) < 0;
        if (downFits && upFits) {
            return exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
        }
        return downFits ? down : upFits ? up : null;
    }

    /** Significant digits of a Java float/double string such as 1.2345E-7 or 100.0. */
    private static int significantDigits(String javaText) {
        int end = javaText.indexOf('E');
        String mantissa = (end < 0 ? javaText : javaText.substring(0, end)).replace(".", "");
        int first = 0;
        while (first < mantissa.length() - 1 && mantissa.charAt(first) == '0') {
            first++;
        }
        int last = mantissa.length();
        while (last > first + 1 && mantissa.charAt(last - 1) == '0') {
            last--;
        }
        return last - first;
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

package io.dpone.backfill.targets.postgres.doctor;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a source column type can be loaded into a target column type without loss: the same
 * {@code format_type} text, or a widening (smallint to integer to bigint to numeric, real to double precision,
 * a bounded character type to a longer or unbounded one or text, numeric to a numeric with at least as many
 * integer and fraction digits).
 */
public final class PostgresDoctorTypes {
    private static final List<String> INTEGERS = List.of("smallint", "integer", "bigint");
    private static final int[] INTEGER_DIGITS = {5, 10, 19};
    private static final Pattern CHARACTER = Pattern.compile("(character varying|character|text)(?:\\((\\d+)\\))?");
    private static final Pattern NUMERIC = Pattern.compile("numeric(?:\\((\\d+)(?:,(\\d+))?\\))?");

    private PostgresDoctorTypes() {
    }

    static boolean compatible(String source, String target) {
        if (source.equals(target)) {
            return true;
        }
        if (INTEGERS.contains(source)) {
            return integerInto(INTEGERS.indexOf(source), target);
        }
        if (source.equals("real")) {
            return target.equals("double precision");
        }
        Matcher sc = CHARACTER.matcher(source);
        Matcher tc = CHARACTER.matcher(target);
        if (sc.matches() && tc.matches()) {
            return characterInto(sc, tc);
        }
        Matcher sn = NUMERIC.matcher(source);
        Matcher tn = NUMERIC.matcher(target);
        if (sn.matches() && tn.matches()) {
            // Unconstrained source numeric only fits an unconstrained target.
            return tn.group(1) == null
                    || sn.group(1) != null && digitsFit(precision(sn), scale(sn), precision(tn), scale(tn));
        }
        return false;
    }

    private static boolean integerInto(int rank, String target) {
        if (INTEGERS.contains(target)) {
            return INTEGERS.indexOf(target) >= rank;
        }
        Matcher tn = NUMERIC.matcher(target);
        return tn.matches() && (tn.group(1) == null || digitsFit(INTEGER_DIGITS[rank], 0, precision(tn), scale(tn)));
    }

    /** character(n) pads with blanks, so it only widens into another character(m) with m >= n. */
    private static boolean characterInto(Matcher source, Matcher target) {
        String sourceKind = source.group(1);
        String targetKind = target.group(1);
        Integer targetLength = target.group(2) == null ? null : Integer.valueOf(target.group(2));
        Integer sourceLength = source.group(2) == null ? null : Integer.valueOf(source.group(2));
        if (sourceKind.equals("character")) {
            return targetKind.equals("character") && targetLength != null && sourceLength != null
                    && targetLength >= sourceLength;
        }
        if (targetKind.equals("text") || targetKind.equals("character varying") && targetLength == null) {
            return true;
        }
        return targetKind.equals("character varying") && sourceLength != null && targetLength >= sourceLength;
    }

    private static boolean digitsFit(int sourcePrecision, int sourceScale, int targetPrecision, int targetScale) {
        return targetScale >= sourceScale && targetPrecision - targetScale >= sourcePrecision - sourceScale;
    }

    private static int precision(Matcher numeric) {
        return Integer.parseInt(numeric.group(1));
    }

    private static int scale(Matcher numeric) {
        return numeric.group(2) == null ? 0 : Integer.parseInt(numeric.group(2));
    }
}

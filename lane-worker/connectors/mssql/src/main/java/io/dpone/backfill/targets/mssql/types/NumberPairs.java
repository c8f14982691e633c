package io.dpone.backfill.targets.mssql.types;

import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.source.TypeFamily;

/** Pairs of integer, numeric and floating-point sources with SQL Server's exact and approximate number types. */
final class NumberPairs {
    private NumberPairs() {
    }

    static MssqlTypeCheck integer(TypePair pair) {
        TypeFamily type = pair.family();
        String typeName = pair.source().arrivingType();
        int digits = switch (type) {
            case INT16 -> 5;
            case INT32 -> 10;
            default -> 19;
        };
        MssqlColumn target = pair.target();
        switch (pair.targetType()) {
            case SMALLINT:
                if (type == TypeFamily.INT16) {
                    return pair.accept(BulkValueConverters.TO_SHORT);
                }
                break;
            case INT:
                if (type != TypeFamily.INT64) {
                    return pair.accept(BulkValueConverters.TO_INTEGER);
                }
                break;
            case BIGINT:
                return pair.accept(BulkValueConverters.TO_LONG);
            case DECIMAL:
            case NUMERIC:
                int integerDigits = target.precision() - target.scale();
                if (integerDigits >= digits) {
                    return pair.accept(BulkValueConverters.toDecimal(target.scale()));
                }
                return pair.refuse(typeName + " values have up to " + digits + " digits; "
                        + target.declaration() + " holds " + integerDigits + " integer digits");
            default:
                break;
        }
        String wider = switch (type) {
            case INT16 -> "smallint, int, bigint";
            case INT32 -> "int, bigint";
            default -> "bigint";
        };
        return pair.refuse("a " + typeName + " column loads into " + wider + " or decimal/numeric with at least "
                + digits + " integer digits (precision - scale)");
    }

    /**
     * numeric(p,s) needs room for its p - s integer digits and its s places, so every value fits; an unconstrained
     * numeric fits any decimal as far as the values go, so each value is checked instead.
     */
    static MssqlTypeCheck numeric(TypePair pair) {
        if (pair.targetType() != MssqlTargetType.DECIMAL && pair.targetType() != MssqlTargetType.NUMERIC) {
            return pair.refuse("a numeric column loads into decimal or numeric only");
        }
        MssqlColumn target = pair.target();
        int targetScale = target.scale();
        int targetIntegerDigits = target.precision() - targetScale;
        BulkValueConverter converter = BulkValueConverters.toDecimal(targetScale);
        SourceColumn source = pair.source();
        if (!source.constrainedDecimal()) {
            return pair.accept(converter, NumberGuards.FINITE_NUMERIC,
                    NumberGuards.integerDigits(target.precision(), targetScale),
                    NumberGuards.decimalPlaces(target.precision(), targetScale));
        }
        int precision = source.precision();
        int scale = source.scale();
        int integerDigits = precision - scale;
        int places = Math.max(0, scale);
        if (targetIntegerDigits < integerDigits) {
            return pair.refuse("the source holds " + integerDigits + " integer digits, the target "
                    + targetIntegerDigits + " (precision - scale)");
        }
        if (targetScale < places) {
            return pair.refuse("the source keeps " + places + " decimal places, the target " + targetScale
                    + "; values would be rounded");
        }
        return pair.accept(converter, NumberGuards.FINITE_NUMERIC);
    }

    static MssqlTypeCheck floating(TypePair pair) {
        boolean single = pair.family() == TypeFamily.FLOAT32;
        switch (pair.targetType()) {
            case REAL:
                if (single) {
                    return pair.accept(BulkValueConverters.AS_IS, NumberGuards.FINITE_FLOAT, NumberGuards.REAL_RANGE);
                }
                return pair.refuse("float8 values would be rounded to real's 24-bit mantissa; use float(53)");
            case FLOAT:
                if (pair.target().precision() != 53) {
                    return pair.refuse("float is expected with precision 53, the catalog says " + pair.target().precision());
                }
                // A subnormal float4 widens to a normal float8, so only float8 sources need the range guard.
                return single ? pair.accept(BulkValueConverters.TO_DOUBLE, NumberGuards.FINITE_FLOAT)
                        : pair.accept(BulkValueConverters.AS_IS, NumberGuards.FINITE_FLOAT, NumberGuards.FLOAT_RANGE);
            default:
                return pair.refuse(single ? "a float4 column loads into real or float(53)"
                        : "a float8 column loads into float(53) only");
        }
    }
}

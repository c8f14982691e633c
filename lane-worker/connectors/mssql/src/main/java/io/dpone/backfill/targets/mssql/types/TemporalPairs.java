package io.dpone.backfill.targets.mssql.types;

import io.dpone.backfill.source.TypeFamily;

/**
 * Pairs of date, time, timestamp and timestamp with time zone with SQL Server's temporal types. A target must keep at least the
 * source's fractional-second digits (6 unless declared fewer), so no value is rounded; the range guards catch what
 * PostgreSQL holds and SQL Server does not.
 */
final class TemporalPairs {
    private TemporalPairs() {
    }

    static MssqlTypeCheck temporal(TypePair pair) {
        TypeFamily type = pair.family();
        MssqlTargetType target = pair.targetType();
        if (type == TypeFamily.DATE) {
            return target == MssqlTargetType.DATE
                    ? pair.accept(BulkValueConverters.DATE, TemporalGuards.FINITE, TemporalGuards.DATE_RANGE)
                    : pair.refuse("a date column loads into date only");
        }
        int sourceDigits = pair.source().precision();
        int scale = pair.target().scale();
        if (type == TypeFamily.TIME) {
            if (target != MssqlTargetType.TIME) {
                return pair.refuse("a time column loads into time(p) only");
            }
            return keepsFraction(pair, sourceDigits) ? pair.accept(BulkValueConverters.time(scale),
                    fractionChecked(scale, TemporalGuards.BEFORE_END_OF_DAY))
                    : refuseFraction(pair, sourceDigits);
        }
        if (type == TypeFamily.TIMESTAMP) {
            if (target == MssqlTargetType.DATETIME) {
                return pair.accept(BulkValueConverters.DATETIME, TemporalGuards.FINITE, TemporalGuards.DATETIME_RANGE,
                        TemporalGuards.DATETIME_TICKS);
            }
            if (target != MssqlTargetType.DATETIME2) {
                return pair.refuse("a timestamp column loads into datetime2(p), or datetime for values it holds exactly");
            }
            return keepsFraction(pair, sourceDigits)
                    ? pair.accept(BulkValueConverters.datetime2(scale),
                    fractionChecked(scale, TemporalGuards.FINITE, TemporalGuards.DATETIME2_RANGE))
                    : refuseFraction(pair, sourceDigits);
        }
        if (target == MssqlTargetType.DATETIMEOFFSET) {
            return keepsFraction(pair, sourceDigits)
                    ? pair.accept(BulkValueConverters.datetimeoffset(scale), fractionChecked(scale,
                    TemporalGuards.FINITE, TemporalGuards.OFFSET_RANGE, TemporalGuards.DATETIMEOFFSET_RANGE))
                    : refuseFraction(pair, sourceDigits);
        }
        if (target == MssqlTargetType.DATETIME2) {
            return keepsFraction(pair, sourceDigits)
                    ? pair.accept(BulkValueConverters.utcDatetime2(scale),
                    fractionChecked(scale, TemporalGuards.FINITE, TemporalGuards.UTC_DATETIME2_RANGE))
                    : refuseFraction(pair, sourceDigits);
        }
        return pair.refuse("a timestamptz column loads into datetimeoffset(p), or datetime2(p) as UTC");
    }

    /**
     * The guards, plus the fraction guard when the target keeps fewer digits than a source's microseconds: only
     * then could a value (of a source declaring more digits than it holds) carry a digit the text would drop.
     */
    private static ValueGuard[] fractionChecked(int scale, ValueGuard... guards) {
        if (scale >= TypeFamily.MAX_FRACTION_DIGITS) {
            return guards;
        }
        ValueGuard[] checked = java.util.Arrays.copyOf(guards, guards.length + 1);
        checked[guards.length] = TemporalGuards.fractionFits(scale);
        return checked;
    }

    private static boolean keepsFraction(TypePair pair, int sourceDigits) {
        return pair.target().scale() >= sourceDigits;
    }

    private static MssqlTypeCheck refuseFraction(TypePair pair, int sourceDigits) {
        return pair.refuse("the source keeps " + sourceDigits + " fractional-second digits, the target "
                + pair.target().scale() + "; values would be rounded");
    }
}

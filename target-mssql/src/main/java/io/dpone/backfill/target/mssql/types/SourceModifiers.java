package io.dpone.backfill.target.mssql.types;

/**
 * Reads PostgreSQL type modifiers (atttypmod) the way PostgreSQL encodes them: varchar(n) and bpchar(n) as n + 4,
 * numeric(p,s) as ((p << 16) | s) + 4 with s an 11-bit signed field (negative scales exist since PostgreSQL 15),
 * time(p), timestamp(p) and timestamptz(p) as p itself. -1 means unconstrained.
 */
final class SourceModifiers {
    /** Four bytes of varlena header, which PostgreSQL adds to length and numeric modifiers. */
    private static final int VARHDRSZ = 4;
    /** PostgreSQL keeps microseconds: six fractional digits when time or timestamp has no modifier. */
    static final int DEFAULT_FRACTION_DIGITS = 6;

    private SourceModifiers() {
    }

    /** The declared character length of varchar(n) or bpchar(n), or -1. */
    static int characterLength(int typmod) {
        return typmod >= VARHDRSZ ? typmod - VARHDRSZ : -1;
    }

    static boolean isConstrainedNumeric(int typmod) {
        return typmod >= VARHDRSZ;
    }

    static int numericPrecision(int typmod) {
        return ((typmod - VARHDRSZ) >> 16) & 0xffff;
    }

    static int numericScale(int typmod) {
        return (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;
    }

    static int fractionDigits(int typmod) {
        return typmod >= 0 ? typmod : DEFAULT_FRACTION_DIGITS;
    }
}

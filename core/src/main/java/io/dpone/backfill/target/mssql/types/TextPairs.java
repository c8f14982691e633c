package io.dpone.backfill.target.mssql.types;

import io.dpone.backfill.source.postgres.binary.PgType;

/**
 * Pairs of text-like sources (text, varchar, bpchar, name, json, jsonb, and enums and arrays cast to text) with
 * nvarchar and varchar, and of bytea with varbinary. A source with a declared length needs a target at least that
 * long; within it, values are still measured, since SQL Server counts differently from PostgreSQL (PostgreSQL
 * counts characters, nvarchar UTF-16 code units, varchar bytes).
 */
final class TextPairs {
    /** name is at most NAMEDATALEN - 1 = 63 bytes, hence at most 63 characters. */
    private static final int NAME_LENGTH = 63;

    private TextPairs() {
    }

    static MssqlTypeCheck text(TypePair pair) {
        int sourceLength = sourceLength(pair);
        MssqlColumn target = pair.target();
        switch (pair.targetType()) {
            case NVARCHAR:
                if (target.isMax()) {
                    return pair.accept(BulkValueConverters.AS_IS);
                }
                if (tooShort(sourceLength, target)) {
                    return refuseShort(pair, sourceLength);
                }
                return pair.accept(BulkValueConverters.AS_IS, LengthGuards.utf16Units(target.declaredLength()));
            case VARCHAR:
                if (target.hasUtf8Collation()) {
                    if (target.isMax()) {
                        return pair.accept(BulkValueConverters.AS_IS);
                    }
                    if (tooShort(sourceLength, target)) {
                        return refuseShort(pair, sourceLength);
                    }
                    return pair.accept(BulkValueConverters.AS_IS, LengthGuards.utf8Bytes(target.declaredLength()));
                }
                if (target.isMax()) {
                    return pair.accept(BulkValueConverters.AS_IS, LengthGuards.ASCII_ONLY);
                }
                if (tooShort(sourceLength, target)) {
                    return refuseShort(pair, sourceLength);
                }
                return pair.accept(BulkValueConverters.AS_IS, LengthGuards.ASCII_ONLY,
                        LengthGuards.asciiCharacters(target.declaredLength()));
            default:
                return pair.refuse("a text column loads into nvarchar(n|max), or varchar(n|max) "
                        + "(ASCII only unless the collation is UTF-8)");
        }
    }

    static MssqlTypeCheck bytea(TypePair pair) {
        if (pair.targetType() != MssqlTargetType.VARBINARY) {
            return pair.refuse("a bytea column loads into varbinary(n|max) only");
        }
        MssqlColumn target = pair.target();
        if (target.isMax()) {
            return pair.accept(BulkValueConverters.AS_IS);
        }
        return pair.accept(BulkValueConverters.AS_IS, LengthGuards.bytes(target.declaredLength()));
    }

    /** The declared length in characters, or -1 for an unbounded source. */
    private static int sourceLength(TypePair pair) {
        if (pair.sourceType() == PgType.NAME) {
            return NAME_LENGTH;
        }
        if (pair.sourceType() == PgType.VARCHAR || pair.sourceType() == PgType.BPCHAR) {
            return SourceModifiers.characterLength(pair.sourceTypmod());
        }
        return -1;
    }

    private static boolean tooShort(int sourceLength, MssqlColumn target) {
        return sourceLength > 0 && target.declaredLength() < sourceLength;
    }

    private static MssqlTypeCheck refuseShort(TypePair pair, int sourceLength) {
        return pair.refuse("the source allows " + sourceLength + " characters, the target holds "
                + pair.target().declaredLength());
    }
}

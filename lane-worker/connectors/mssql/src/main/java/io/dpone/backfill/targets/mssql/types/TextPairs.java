package io.dpone.backfill.targets.mssql.types;

import io.dpone.backfill.source.TypeFamily;

/**
 * Pairs of text-like sources (varying and fixed-length text, JSON, and whatever a source hands over as text) with
 * nvarchar and varchar, of character(n) with nchar(n) and char(n), and of bytea with varbinary. A source with a
 * declared length needs a target at least that long; within it, values are still measured, since SQL Server counts
 * differently from the source (the source counts characters, nvarchar UTF-16 code units, varchar bytes).
 */
final class TextPairs {
    private TextPairs() {
    }

    static MssqlTypeCheck text(TypePair pair) {
        int sourceLength = pair.source().length();
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
            case NCHAR:
            case CHAR:
                return fixedLength(pair, sourceLength);
            default:
                return pair.refuse("a text column loads into nvarchar(n|max), or varchar(n|max) "
                        + "(ASCII only unless the collation is UTF-8), or a character(n) column into nchar(n)/char(n)");
        }
    }

    /**
     * Fixed-length text (PostgreSQL's character(n)) into nchar(n) or char(n), the same n. The source pads its values
     * with spaces to n characters and sends them padded; SQL Server pads nchar(n) to n UTF-16 code units and char(n) to n bytes. Only
     * when both paddings end at the same place do the stored texts (and so the row digests, ADR 0018) agree: the same
     * n, and each value within n code units (nchar) or n bytes (char). A longer target would pad further, a text
     * source would be padded where PostgreSQL has none: both are refused.
     */
    private static MssqlTypeCheck fixedLength(TypePair pair, int sourceLength) {
        MssqlColumn target = pair.target();
        if (pair.family() != TypeFamily.FIXED_TEXT || sourceLength < 0) {
            return pair.refuse("only a character(n) column loads into " + target.typeName()
                    + "(n): SQL Server pads every value to n, PostgreSQL pads only character(n)");
        }
        if (target.declaredLength() != sourceLength) {
            return pair.refuse("character(" + sourceLength + ") loads into " + target.typeName() + "(" + sourceLength
                    + ") only: SQL Server pads to its own length, so the stored text would differ");
        }
        if (pair.targetType() == MssqlTargetType.NCHAR) {
            return pair.accept(BulkValueConverters.AS_IS, LengthGuards.utf16Units("nchar", sourceLength));
        }
        if (target.hasUtf8Collation()) {
            return pair.accept(BulkValueConverters.AS_IS, LengthGuards.utf8Bytes("char", sourceLength));
        }
        return pair.accept(BulkValueConverters.AS_IS, LengthGuards.ASCII_ONLY,
                LengthGuards.asciiCharacters("char", sourceLength));
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

    private static boolean tooShort(int sourceLength, MssqlColumn target) {
        return sourceLength > 0 && target.declaredLength() < sourceLength;
    }

    private static MssqlTypeCheck refuseShort(TypePair pair, int sourceLength) {
        return pair.refuse("the source allows " + sourceLength + " characters, the target holds "
                + pair.target().declaredLength());
    }
}

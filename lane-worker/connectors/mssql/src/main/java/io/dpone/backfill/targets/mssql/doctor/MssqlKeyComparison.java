package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.source.KeyMatch;
import io.dpone.backfill.source.SourceKeyType;
import io.dpone.backfill.source.TypeFamily;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * How the values of one referencing column, read on SQL Server as text ({@code CONVERT(nvarchar(4000), ...)}), are
 * compared with the source column that loads the referenced column (issue 36), and whether a value still missing
 * after that comparison is surely missing for SQL Server too.
 * <ul>
 * <li>Integers: their text is their value. decimal/numeric: its text carries the scale's digits and is read as a
 * numeric (12.50 = 12.5); against an integer source it is sent as the integer it equals (42.00 as 42), and a value
 * that equals none in bigint's range (42.50) is missing without asking. uniqueidentifier: read as a uuid, whatever
 * its letter case.</li>
 * <li>Strings: compared as text, first exactly (an index on the source column serves it), then the values still
 * missing as SQL Server compares them: trailing spaces ignored always, A-Z case under a {@code _CI} collation. What
 * that does not imitate leaves the miss unsure, never an ERROR: accents under an {@code _AI} collation, and under
 * any non-binary collation what it folds in characters outside printable ASCII (width, kana, case of other letters,
 * characters it ignores). Not exact: a source holding only a full-width or otherwise folded form of a printable
 * ASCII referencing value is reported missing, though SQL Server would match it.</li>
 * <li>Anything else is not compared, so the key is not probed: the text forms of dates and times depend on the
 * style and precision, float and real round in text, money, bit and binary have no pair with a source key type.</li>
 * </ul>
 */
record MssqlKeyComparison(KeyMatch exact, KeyMatch loose, Sureness sureness, boolean integral) {
    /** When a value still missing after {@link #loose} is surely missing for SQL Server. */
    enum Sureness { ALWAYS, PRINTABLE_ASCII, NEVER }

    private static final Set<String> INTEGERS = Set.of("tinyint", "smallint", "int", "bigint");
    private static final Set<String> STRINGS = Set.of("char", "varchar", "nchar", "nvarchar");

    /**
     * The comparison for a referencing column of SQL Server system type {@code type} (and collation, for a string)
     * whose referenced column the source column of type {@code sourceType} loads ({@link
     * io.dpone.backfill.source.SourceKeyProbe#columnType}); empty when the values cannot be compared exactly.
     */
    static Optional<MssqlKeyComparison> of(String type, String collation, SourceKeyType sourceType) {
        String t = type.toLowerCase(Locale.ROOT);
        boolean integerSource = sourceType.family().integer();
        boolean decimal = t.equals("decimal") || t.equals("numeric");
        if (INTEGERS.contains(t) && integerSource || decimal && sourceType.family() == TypeFamily.DECIMAL
                || t.equals("uniqueidentifier") && sourceType.family() == TypeFamily.UUID) {
            return Optional.of(new MssqlKeyComparison(KeyMatch.TYPED, KeyMatch.TYPED, Sureness.ALWAYS, false));
        }
        if (decimal && integerSource) {
            return Optional.of(new MssqlKeyComparison(KeyMatch.TYPED, KeyMatch.TYPED, Sureness.ALWAYS, true));
        }
        if (!STRINGS.contains(t) || collation == null) {
            return Optional.empty();
        }
        List<String> parts = List.of(collation.toUpperCase(Locale.ROOT).split("_"));
        if (parts.contains("BIN") || parts.contains("BIN2")) {
            return Optional.of(new MssqlKeyComparison(KeyMatch.TEXT, KeyMatch.TEXT_PADDED, Sureness.ALWAYS, false));
        }
        return Optional.of(new MssqlKeyComparison(KeyMatch.TEXT, parts.contains("CI") ? KeyMatch.TEXT_PADDED_CASELESS
                : KeyMatch.TEXT_PADDED, parts.contains("AI") ? Sureness.NEVER : Sureness.PRINTABLE_ASCII, false));
    }

    /** {@code text} as the source compares it; empty when no source value can equal it. */
    Optional<String> asSource(String text) {
        if (!integral) {
            return Optional.of(text);
        }
        try {
            return Optional.of(Long.toString(new BigDecimal(text).longValueExact()));
        } catch (NumberFormatException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code value}, missing from the source under {@link #loose}, is missing for SQL Server too. */
    boolean surelyMissing(String value) {
        return switch (sureness) {
            case ALWAYS -> true;
            case NEVER -> false;
            case PRINTABLE_ASCII -> value.chars().allMatch(c -> c >= 0x20 && c <= 0x7E);
        };
    }
}

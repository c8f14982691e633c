package io.dpone.backfill.targets.mssql.publish;

import java.util.Locale;
import java.util.Set;

/**
 * A SQL Server type as T-SQL writes it from the catalog's numbers: lengths in characters for n-types (the catalog
 * counts bytes), {@code (max)} for -1, precision and scale for exact numerics, fractional-second scale for the
 * time types. A type outside these families takes no arguments.
 */
final class MssqlTypes {
    private static final Set<String> BYTE_LENGTH = Set.of("char", "varchar", "binary", "varbinary");
    private static final Set<String> CHAR_LENGTH = Set.of("nchar", "nvarchar");
    private static final Set<String> EXACT = Set.of("decimal", "numeric");
    private static final Set<String> FRACTIONAL_SECONDS = Set.of("datetime2", "datetimeoffset", "time");

    private MssqlTypes() {
    }

    static String render(String typeName, int maxLength, int precision, int scale) {
        String type = typeName.toLowerCase(Locale.ROOT);
        if (BYTE_LENGTH.contains(type)) {
            return type + "(" + (maxLength == -1 ? "max" : Integer.toString(maxLength)) + ")";
        }
        if (CHAR_LENGTH.contains(type)) {
            return type + "(" + (maxLength == -1 ? "max" : Integer.toString(maxLength / 2)) + ")";
        }
        if (EXACT.contains(type)) {
            return type + "(" + precision + "," + scale + ")";
        }
        if (FRACTIONAL_SECONDS.contains(type)) {
            return type + "(" + scale + ")";
        }
        if (type.equals("float")) {
            // float(53) is what plain "float" means; float(1..24) is stored, and reported, as real.
            return precision == 53 ? "float" : "float(" + precision + ")";
        }
        return type;
    }

    /** The CONVERT style that pins the text form of this type's values (-1: the default form is already exact). */
    static int conversionStyle(String typeName) {
        return switch (typeName.toLowerCase(Locale.ROOT)) {
            case "float", "real" -> 3;                     // 17 significant digits: lossless
            case "money", "smallmoney" -> 2;               // four decimals, no thousands separators
            case "datetime", "smalldatetime", "date", "time", "datetime2", "datetimeoffset" -> 121; // full precision
            case "binary", "varbinary", "timestamp", "rowversion", "image" -> 1; // 0x-prefixed hex
            default -> -1;
        };
    }
}

package io.dpone.backfill.targets.mssql.types;

import java.util.Locale;
import java.util.Objects;

/**
 * One SQL Server target column as the catalog describes it (sys.columns joined to sys.types on the system type),
 * the reviewed side of a type pair. Sizes are kept in the catalog's own units so nothing is converted twice.
 *
 * @param name      the column name
 * @param typeName  the system type name from sys.types, e.g. {@code nvarchar}, {@code datetime2}
 * @param maxLength sys.columns.max_length: bytes, -1 for {@code (max)}; nvarchar(10) has 20
 * @param precision sys.columns.precision: decimal digits for decimal/numeric, 24 for real, 53 for float
 * @param scale     sys.columns.scale: decimal places, or fractional-second digits of time/datetime2/datetimeoffset
 * @param nullable  sys.columns.is_nullable
 * @param collation sys.columns.collation_name, null for non-character columns
 */
public record MssqlColumn(String name, String typeName, int maxLength, int precision, int scale, boolean nullable,
                          String collation) {
    /** max_length of a {@code (max)} column. */
    public static final int MAX = -1;

    public MssqlColumn {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(typeName, "typeName");
        typeName = typeName.toLowerCase(Locale.ROOT);
    }

    /** The declared length in the type's own unit (characters for nvarchar, bytes otherwise), or MAX. */
    public int declaredLength() {
        if (maxLength == MAX) {
            return MAX;
        }
        return "nvarchar".equals(typeName) || "nchar".equals(typeName) ? maxLength / 2 : maxLength;
    }

    public boolean isMax() {
        return maxLength == MAX;
    }

    /**
     * SQL Server 2019's UTF-8 collations (names ending in {@code _UTF8}) store varchar as UTF-8; any other collation
     * stores varchar in a single- or double-byte code page.
     */
    public boolean hasUtf8Collation() {
        return collation != null && collation.toUpperCase(Locale.ROOT).endsWith("_UTF8");
    }

    /** The column's type as T-SQL declares it, e.g. {@code nvarchar(max)}, {@code decimal(5,2)}, {@code datetime2(7)}. */
    public String declaration() {
        String declared = switch (typeName) {
            case "nvarchar", "nchar", "varchar", "char", "varbinary", "binary" ->
                    typeName + "(" + (isMax() ? "max" : String.valueOf(declaredLength())) + ")";
            case "decimal", "numeric" -> typeName + "(" + precision + "," + scale + ")";
            case "time", "datetime2", "datetimeoffset" -> typeName + "(" + scale + ")";
            case "float" -> typeName + "(" + precision + ")";
            default -> typeName;
        };
        if (collation != null && ("varchar".equals(typeName) || "char".equals(typeName))) {
            declared += " COLLATE " + collation;
        }
        return declared + (nullable ? " NULL" : " NOT NULL");
    }
}

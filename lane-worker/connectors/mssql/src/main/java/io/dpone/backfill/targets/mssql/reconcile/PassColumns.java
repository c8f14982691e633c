package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.source.SpecialValue;
import io.dpone.backfill.source.TypeFamily;
import io.dpone.backfill.targets.mssql.types.MssqlColumn;
import io.dpone.backfill.targets.mssql.types.MssqlColumnBinding;
import io.dpone.backfill.targets.mssql.types.MssqlTypeCheck;
import io.dpone.backfill.targets.mssql.types.MssqlTypeMap;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * The published table's columns as a pass stages them: each column's value family read from the published column's
 * own type (the pass target is given no source catalog), its binding through the lanes' type map (so the same
 * guards and bulk metadata apply), and the source's text form of a value decoded into the Java value the lanes'
 * decoder hands over for that family. A column whose type the lanes never write is refused, naming it.
 */
final class PassColumns {
    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd HH:mm:ss").optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .optionalEnd().toFormatter();
    private static final DateTimeFormatter OFFSET = new DateTimeFormatterBuilder().append(TIMESTAMP)
            .appendOffset("+HH:mm:ss", "+00").toFormatter();

    private final List<MssqlColumn> columns;
    private final List<TypeFamily> families;
    private final List<MssqlColumnBinding> bindings;

    private PassColumns(List<MssqlColumn> columns, List<TypeFamily> families, List<MssqlColumnBinding> bindings) {
        this.columns = columns;
        this.families = families;
        this.bindings = bindings;
    }

    /** Binds each of {@code columns} (the published table's, as its catalog describes them). */
    static PassColumns of(String table, List<MssqlColumn> columns) {
        List<TypeFamily> families = new ArrayList<>();
        List<MssqlColumnBinding> bindings = new ArrayList<>();
        for (MssqlColumn column : columns) {
            TypeFamily family = family(column);
            if (family == null) {
                throw new IllegalArgumentException("reconciliation into " + table + " cannot stage column " + column.name()
                        + " of type " + column.typeName() + ": the loader writes no such column");
            }
            MssqlTypeCheck check = MssqlTypeMap.check(sourceLike(column, family), column);
            if (!check.isCompatible()) {
                throw new IllegalArgumentException("reconciliation into " + table + " cannot stage column " + column.name()
                        + ": " + check.message());
            }
            families.add(family);
            bindings.add(check.binding());
        }
        return new PassColumns(List.copyOf(columns), List.copyOf(families), List.copyOf(bindings));
    }

    List<MssqlColumn> columns() {
        return columns;
    }

    List<MssqlColumnBinding> bindings() {
        return bindings;
    }

    TypeFamily family(int column) {
        return families.get(column);
    }

    /** The value family a published column of this type holds; null for a type the lanes never write. */
    static TypeFamily family(MssqlColumn column) {
        return switch (column.typeName()) {
            case "smallint" -> TypeFamily.INT16;
            case "int" -> TypeFamily.INT32;
            case "bigint" -> TypeFamily.INT64;
            case "decimal", "numeric" -> TypeFamily.DECIMAL;
            case "real" -> TypeFamily.FLOAT32;
            case "float" -> TypeFamily.FLOAT64;
            case "bit" -> TypeFamily.BOOLEAN;
            case "nvarchar", "varchar" -> TypeFamily.TEXT;
            case "nchar", "char" -> TypeFamily.FIXED_TEXT;
            case "varbinary" -> TypeFamily.BINARY;
            case "uniqueidentifier" -> TypeFamily.UUID;
            case "date" -> TypeFamily.DATE;
            case "time" -> TypeFamily.TIME;
            case "datetime2", "datetime" -> TypeFamily.TIMESTAMP;
            case "datetimeoffset" -> TypeFamily.TIMESTAMP_TZ;
            default -> null;
        };
    }

    /** A source column of {@code family} no wider than the published column: what its values were loaded from. */
    private static SourceColumn sourceLike(MssqlColumn column, TypeFamily family) {
        int length = family == TypeFamily.TEXT || family == TypeFamily.FIXED_TEXT ? column.declaredLength() : -1;
        int precision = switch (family) {
            case DECIMAL -> column.precision();
            case TIME, TIMESTAMP, TIMESTAMP_TZ -> Math.min(column.scale(), TypeFamily.MAX_FRACTION_DIGITS);
            default -> -1;
        };
        int scale = family == TypeFamily.DECIMAL ? column.scale() : 0;
        return new SourceColumn(column.name(), column.declaration(), column.typeName(), family, column.nullable(),
                length, precision, scale);
    }

    /** The Java value the lanes hand over for {@code text}, the source's text form of a value of {@code family}. */
    static Object decode(TypeFamily family, String text) {
        if (text == null) {
            return null;
        }
        return switch (family) {
            case INT16 -> Short.valueOf(text);
            case INT32 -> Integer.valueOf(text);
            case INT64 -> Long.valueOf(text);
            case DECIMAL -> switch (text) {
                case "NaN" -> SpecialValue.NAN;
                case "Infinity" -> SpecialValue.POSITIVE_INFINITY;
                case "-Infinity" -> SpecialValue.NEGATIVE_INFINITY;
                default -> new BigDecimal(text);
            };
            case FLOAT32 -> Float.valueOf(javaFloat(text));
            case FLOAT64 -> Double.valueOf(javaFloat(text));
            case BOOLEAN -> switch (text) {
                case "t" -> Boolean.TRUE;
                case "f" -> Boolean.FALSE;
                default -> throw new IllegalArgumentException("not a boolean's text: " + text);
            };
            case TEXT, FIXED_TEXT, JSON -> text;
            case BINARY -> {
                if (!text.startsWith("\\x")) {
                    throw new IllegalArgumentException("bytes arrive as hex (\\x...), not " + text);
                }
                yield HexFormat.of().parseHex(text, 2, text.length());
            }
            case UUID -> UUID.fromString(text);
            case DATE -> switch (text) {
                case "infinity" -> SpecialValue.POSITIVE_INFINITY;
                case "-infinity" -> SpecialValue.NEGATIVE_INFINITY;
                default -> LocalDate.parse(text);
            };
            case TIME -> text.equals("24:00:00") ? SpecialValue.END_OF_DAY : LocalTime.parse(text);
            // A timestamptz loaded into datetime2 arrives with its offset: the lanes write its UTC wall time.
            case TIMESTAMP -> infinity(text) != null ? infinity(text) : hasOffset(text)
                    ? OffsetDateTime.parse(text, OFFSET).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()
                    : LocalDateTime.parse(text, TIMESTAMP);
            case TIMESTAMP_TZ -> infinity(text) != null ? infinity(text)
                    : OffsetDateTime.parse(text, OFFSET).withOffsetSameInstant(ZoneOffset.UTC);
            case OTHER -> throw new IllegalArgumentException("a value of no known family: " + text);
        };
    }

    private static Object infinity(String text) {
        return text.equals("infinity") ? SpecialValue.POSITIVE_INFINITY
                : text.equals("-infinity") ? SpecialValue.NEGATIVE_INFINITY : null;
    }

    private static boolean hasOffset(String text) {
        int time = text.indexOf(' ');
        return time > 0 && (text.indexOf('+', time) > 0 || text.indexOf('-', time) > 0);
    }

    private static String javaFloat(String text) {
        return switch (text) {
            case "Infinity" -> "Infinity";
            case "-Infinity" -> "-Infinity";
            case "NaN" -> "NaN";
            default -> text;
        };
    }
}

package io.dpone.backfill.targets.mssql.types;

import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.source.postgres.binary.PgType;
import io.dpone.backfill.source.postgres.binary.PlannedColumn;
import io.dpone.backfill.source.postgres.binary.TypeFamilies;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test columns written as people write them: a source as its PostgreSQL declaration, a target as its T-SQL
 * declaration, turned into what the real readers produce: the PostgreSQL source's description of a planned column
 * (from its typmod), and the catalog values (max_length, precision, scale) of sys.columns.
 */
public final class Columns {
    private static final Pattern DECLARATION = Pattern.compile("(\\w+)(?:\\((\\w+)(?:,\\s*(-?\\d+))?\\))?(\\[\\])?");

    private Columns() {
    }

    /** e.g. {@code source("n", "numeric(5,2)")}, {@code source("t", "text")}, {@code source("ts", "timestamp(3)")}. */
    static SourceColumn source(String name, String declaration) {
        Matcher m = match(declaration);
        PgType type = pgType(m.group(1));
        int typmod = -1;
        if (m.group(2) != null) {
            int first = Integer.parseInt(m.group(2));
            typmod = switch (type) {
                case NUMERIC -> ((first << 16) | (Integer.parseInt(m.group(3) == null ? "0" : m.group(3)) & 0x7ff)) + 4;
                case VARCHAR, BPCHAR -> first + 4;
                default -> first;
            };
        }
        return TypeFamilies.describe(new PlannedColumn(name, declaration, PlannedColumn.Kind.BASE, type, typmod,
                "\"" + name + "\""));
    }

    /** An enum or array, which arrives cast to text. */
    static SourceColumn castToText(String name, String declaration, PlannedColumn.Kind kind) {
        return TypeFamilies.describe(new PlannedColumn(name, declaration, kind, PgType.TEXT, -1,
                "\"" + name + "\"::pg_catalog.text"));
    }

    /** e.g. {@code target("n", "decimal(5,2)")}; nullable, no collation. */
    public static MssqlColumn target(String name, String declaration) {
        return target(name, declaration, true, null);
    }

    static MssqlColumn notNull(String name, String declaration) {
        return target(name, declaration, false, null);
    }

    static MssqlColumn collated(String name, String declaration, String collation) {
        return target(name, declaration, true, collation);
    }

    static MssqlColumn target(String name, String declaration, boolean nullable, String collation) {
        Matcher m = match(declaration);
        String type = m.group(1).toLowerCase(Locale.ROOT);
        String first = m.group(2);
        boolean max = "max".equalsIgnoreCase(first);
        int n = first == null || max ? 0 : Integer.parseInt(first);
        return switch (type) {
            case "nvarchar", "nchar" -> new MssqlColumn(name, type, max ? MssqlColumn.MAX : 2 * n, 0, 0, nullable,
                    collation == null ? "SQL_Latin1_General_CP1_CI_AS" : collation);
            case "varchar", "char" -> new MssqlColumn(name, type, max ? MssqlColumn.MAX : n, 0, 0, nullable,
                    collation == null ? "SQL_Latin1_General_CP1_CI_AS" : collation);
            case "varbinary", "binary" -> new MssqlColumn(name, type, max ? MssqlColumn.MAX : n, 0, 0, nullable, null);
            case "decimal", "numeric" -> new MssqlColumn(name, type, 9, first == null ? 18 : n,
                    m.group(3) == null ? 0 : Integer.parseInt(m.group(3)), nullable, null);
            case "time", "datetime2", "datetimeoffset" -> new MssqlColumn(name, type, 8, 0, first == null ? 7 : n, nullable, null);
            case "float" -> new MssqlColumn(name, type, 8, 53, 0, nullable, null);
            case "real" -> new MssqlColumn(name, type, 4, 24, 0, nullable, null);
            case "datetime" -> new MssqlColumn(name, type, 8, 23, 3, nullable, null);
            default -> new MssqlColumn(name, type, 8, 0, 0, nullable, null);
        };
    }

    private static Matcher match(String declaration) {
        Matcher m = DECLARATION.matcher(declaration.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a declaration: " + declaration);
        }
        return m;
    }

    private static PgType pgType(String name) {
        return switch (name) {
            case "int2", "smallint" -> PgType.INT2;
            case "int4", "integer" -> PgType.INT4;
            case "int8", "bigint" -> PgType.INT8;
            case "character", "char", "bpchar" -> PgType.BPCHAR;
            case "timestamptz" -> PgType.TIMESTAMPTZ;
            default -> PgType.valueOf(name.toUpperCase(Locale.ROOT));
        };
    }
}

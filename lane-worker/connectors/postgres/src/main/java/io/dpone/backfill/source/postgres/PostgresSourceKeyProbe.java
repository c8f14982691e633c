package io.dpone.backfill.source.postgres;

import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.source.KeyMatch;
import io.dpone.backfill.source.SourceKeyProbe;
import io.dpone.backfill.source.SourceKeyType;
import io.dpone.backfill.source.postgres.binary.TypeFamilies;
import io.dpone.backfill.postgres.PostgresJdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * What a foreign key will find in the source table once it is loaded, asked before loading by the targets' doctors
 * (issues 27 and 36): whether any source row would reference another table, and which referencing values no source
 * row holds. Read only. Values arrive as text, so a target of any engine can send what it read from its own tables;
 * each value is compared with its source column as its {@link KeyMatch} says. Tables are named either as the SPI
 * names them (schema and table) or quoted and schema-qualified ({@link #table}), as the PostgreSQL target names them.
 */
public final class PostgresSourceKeyProbe implements SourceKeyProbe {
    /** Values sent in one statement. */
    static final int BATCH = 5_000;
    private static final Set<String> INTEGERS = Set.of("smallint", "integer", "bigint");

    private final Connection source;

    public PostgresSourceKeyProbe(Connection source) {
        this.source = source;
    }

    @Override
    public boolean anyRowReferencing(String schema, String table, List<String> columns) throws SQLException {
        return anyRowReferencing(table(schema, table), columns);
    }

    @Override
    public List<String[]> missing(String schema, String table, List<String> columns, List<KeyMatch> matches,
                                  List<String[]> values) throws SQLException {
        return missing(table(schema, table), columns, matches, values);
    }

    @Override
    public SourceKeyType columnType(String schema, String table, String column) throws SQLException {
        String name = columnType(table(schema, table), column);
        return new SourceKeyType(name, TypeFamilies.ofTypeName(name));
    }

    /** Whether a row of {@code qualifiedSourceTable} has every one of {@code sourceColumns} set. */
    public boolean anyRowReferencing(String qualifiedSourceTable, List<String> sourceColumns) throws SQLException {
        List<String> set = sourceColumns.stream().map(c -> PostgresIdentifiers.quote(c) + " IS NOT NULL").toList();
        return new PostgresJdbc(source).one("SELECT 1 FROM " + qualifiedSourceTable + " WHERE "
                + String.join(" AND ", set) + " LIMIT 1", rs -> true).isPresent();
    }

    /** {@link #missing(String, List, List, List)} with every value read as its column's type. */
    public List<String[]> missing(String qualifiedSourceTable, List<String> sourceColumns, List<String[]> values)
            throws SQLException {
        return missing(qualifiedSourceTable, sourceColumns, Collections.nCopies(sourceColumns.size(), KeyMatch.TYPED), values);
    }

    /**
     * The tuples of {@code values} (one text per source column, none null) that no row of {@code qualifiedSourceTable}
     * holds in {@code sourceColumns}, sorted, probed {@value #BATCH} at a time.
     */
    public List<String[]> missing(String qualifiedSourceTable, List<String> sourceColumns, List<KeyMatch> matches,
                                  List<String[]> values) throws SQLException {
        if (values.isEmpty()) {
            return List.of();
        }
        List<String> types = new ArrayList<>();
        for (int i = 0; i < sourceColumns.size(); i++) {
            types.add(matches.get(i) == KeyMatch.TYPED ? castType(columnType(qualifiedSourceTable, sourceColumns.get(i))) : null);
        }
        String sql = missingSql(qualifiedSourceTable, sourceColumns, matches, types);
        int n = sourceColumns.size();
        List<String[]> missing = new ArrayList<>();
        for (int from = 0; from < values.size(); from += BATCH) {
            List<String[]> batch = values.subList(from, Math.min(values.size(), from + BATCH));
            try (PreparedStatement ps = source.prepareStatement(sql)) {
                for (int i = 0; i < n; i++) {
                    int column = i;
                    ps.setArray(i + 1, source.createArrayOf("text", batch.stream().map(t -> t[column]).toArray()));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String[] tuple = new String[n];
                        for (int i = 0; i < n; i++) {
                            tuple[i] = rs.getString(i + 1);
                        }
                        missing.add(tuple);
                    }
                }
            }
        }
        return missing;
    }

    /** The type of a source column as a cast names it: {@code format_type} without the modifier. */
    public String columnType(String qualifiedSourceTable, String column) throws SQLException {
        return new PostgresJdbc(source).one("SELECT pg_catalog.format_type(a.atttypid, NULL)"
                        + " FROM pg_catalog.pg_attribute a WHERE a.attrelid = ?::regclass AND a.attname = ?"
                        + " AND NOT a.attisdropped", rs -> rs.getString(1), qualifiedSourceTable, column)
                .orElseThrow(() -> new SQLException("the source table " + qualifiedSourceTable + " has no column " + column));
    }

    /** A source table as the probes take it: quoted and schema-qualified. */
    public static String table(String schema, String table) {
        return PostgresIdentifiers.qualified(schema, table);
    }

    /** A tuple as findings show it: {@code v}, or {@code (v1, v2)} for a composite key. */
    public static String shown(String[] tuple) {
        return SourceKeyProbe.shown(tuple);
    }

    /** Whether {@code columnType} (as {@link #columnType} names it) is one of PostgreSQL's integer types. */
    public static boolean integer(String columnType) {
        return INTEGERS.contains(columnType);
    }

    /**
     * One batch's statement: one text array per column, zipped by ROWS FROM (the schema-qualified unnest takes one
     * array at a time), each row kept when no source row matches it. {@code types}: the cast of each TYPED column.
     */
    static String missingSql(String qualifiedSourceTable, List<String> sourceColumns, List<KeyMatch> matches,
                             List<String> types) {
        List<String> arrays = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> match = new ArrayList<>();
        for (int i = 0; i < sourceColumns.size(); i++) {
            arrays.add("pg_catalog.unnest(?::text[])");
            names.add("v" + i);
            // Qualified everywhere: an unqualified name would resolve to a source column of the same name.
            String column = "s." + PostgresIdentifiers.quote(sourceColumns.get(i));
            String value = "probe.v" + i;
            match.add(switch (matches.get(i)) {
                case TYPED -> column + " = " + value + "::" + types.get(i);
                case TEXT -> column + "::text = " + value;
                case TEXT_PADDED -> "pg_catalog.rtrim(" + column + "::text) = pg_catalog.rtrim(" + value + ")";
                case TEXT_PADDED_CASELESS -> "pg_catalog.lower(pg_catalog.rtrim(" + column + "::text) COLLATE pg_catalog.\"C\")"
                        + " = pg_catalog.lower(pg_catalog.rtrim(" + value + ") COLLATE pg_catalog.\"C\")";
            });
        }
        List<String> order = new ArrayList<>();
        for (int i = 1; i <= names.size(); i++) {
            order.add(Integer.toString(i));
        }
        return "SELECT " + String.join(", ", names.stream().map(v -> "probe." + v).toList()) + " FROM ROWS FROM ("
                + String.join(", ", arrays) + ") AS probe(" + String.join(", ", names) + ") WHERE NOT EXISTS (SELECT 1 FROM "
                + qualifiedSourceTable + " s WHERE " + String.join(" AND ", match) + ") ORDER BY " + String.join(", ", order);
    }

    private static String castType(String columnType) {
        return integer(columnType) ? "bigint" : columnType;
    }
}

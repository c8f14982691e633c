package io.dpone.backfill.source.postgres.digest;

import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.source.postgres.binary.PgType;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The type each loaded column of one PostgreSQL table arrives as, for its canonical encoding (ADR 0018): a built-in
 * {@link PgType}, a domain as its base type, an enum as text (its label is its value on every wire), or null for a
 * type outside the families (its wire bytes are digested as they come). Read from the catalog of the table the rows
 * come from, so a source {@code int4} and a target {@code int8} both count as integers.
 */
public final class ColumnFamilies {
    /** Each column's type, a domain followed down to its base type (domains over domains too). */
    private static final String SQL = "WITH RECURSIVE cols AS ("
            + " SELECT a.attname, a.atttypid AS typ FROM pg_catalog.pg_attribute a"
            + " WHERE a.attrelid = pg_catalog.to_regclass(pg_catalog.format('%I.%I', ?::text, ?::text))"
            + " AND a.attnum > 0 AND NOT a.attisdropped"
            + " UNION ALL SELECT c.attname, t.typbasetype FROM cols c JOIN pg_catalog.pg_type t ON t.oid = c.typ"
            + " WHERE t.typtype = 'd')"
            + " SELECT c.attname, t.oid AS base, t.typtype FROM cols c JOIN pg_catalog.pg_type t ON t.oid = c.typ"
            + " WHERE t.typtype <> 'd'";

    private ColumnFamilies() {
    }

    /** One entry per column of {@code columns}, in that order; a missing column fails. */
    public static PgType[] of(Connection connection, String schema, String table, List<String> columns) throws SQLException {
        Map<String, PgType> byName = new HashMap<>();
        Map<String, Boolean> present = new HashMap<>();
        new PostgresJdbc(connection).list(SQL, rs -> {
            String name = rs.getString("attname");
            present.put(name, true);
            PgType type = "e".equals(rs.getString("typtype")) ? PgType.TEXT : PgType.byOid(rs.getLong("base"));
            if (type != null) {
                byName.put(name, type);
            }
            return name;
        }, schema, table);
        PgType[] types = new PgType[columns.size()];
        for (int i = 0; i < types.length; i++) {
            if (!present.containsKey(columns.get(i))) {
                throw new IllegalStateException("column " + columns.get(i) + " is not in " + schema + "." + table);
            }
            types[i] = byName.get(columns.get(i));
        }
        return types;
    }
}

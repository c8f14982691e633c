package io.dpone.backfill.target.postgres;

import io.dpone.backfill.postgres.PostgresFailures;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Whether binary COPY tuples can pass from the source table into the load table untouched: every loaded column has
 * the same built-in type (the same type OID, below FirstNormalObjectId, so it means the same type in every
 * database) and the same type modifier on both sides. A user type (enum, domain, composite, or an array of one) has
 * a per-database OID, and binary arrays and composites carry element OIDs, so those go as text (ADR 0017).
 */
final class PostgresPassThrough {
    /** PostgreSQL's FirstNormalObjectId: OIDs below it are assigned by initdb, the same in every cluster. */
    static final long FIRST_NORMAL_OBJECT_ID = 16384;

    private static final String COLUMN_TYPES = "SELECT a.attname, a.atttypid::bigint AS type_id, a.atttypmod FROM pg_attribute a"
            + " WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped";

    private record ColumnType(String name, long typeId, int typmod) {
        boolean builtIn() {
            return typeId < FIRST_NORMAL_OBJECT_ID;
        }
    }

    private PostgresPassThrough() {
    }

    static boolean identicalTypes(Connection source, String sourceSchema, String sourceTable, Connection target,
                                  String loadSchema, String loadTable, List<String> columns) {
        Map<String, ColumnType> from = types(source, sourceSchema, sourceTable);
        Map<String, ColumnType> to = types(target, loadSchema, loadTable);
        return !columns.isEmpty() && columns.stream().allMatch(c -> {
            ColumnType s = from.get(c);
            ColumnType t = to.get(c);
            return s != null && t != null && s.builtIn() && s.typeId() == t.typeId() && s.typmod() == t.typmod();
        });
    }

    private static Map<String, ColumnType> types(Connection c, String schema, String table) {
        try {
            return new PostgresJdbc(c).list(COLUMN_TYPES, rs -> new ColumnType(rs.getString("attname"), rs.getLong("type_id"),
                    rs.getInt("atttypmod")), PostgresIdentifiers.qualified(schema, table)).stream()
                    .collect(Collectors.toMap(ColumnType::name, Function.identity()));
        } catch (SQLException e) {
            throw PostgresFailures.of("could not read the column types of " + schema + "." + table, e);
        }
    }
}

package io.dpone.backfill.postgres;

import io.dpone.backfill.core.target.ColumnShape;
import io.dpone.backfill.core.target.TableShape;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads relations and their columns from pg_catalog; creates and changes nothing. */
final class PostgresCatalog {
    /** A relation by name: its oid, {@code relkind} ('r' table, 'p' partitioned, 'v' view, ...), owner and comment. */
    record Relation(long oid, String schema, String name, char kind, String owner, long ownerOid, String comment) {
        boolean isTable() {
            return kind == 'r';
        }
    }

    /**
     * One live column. {@code type} is {@code format_type(atttypid, atttypmod)}; {@code baseType} looks through a
     * domain; {@code identity} is ' ', 'a' (ALWAYS) or 'd' (BY DEFAULT); {@code generated} ' ' or 's' (STORED).
     */
    record Column(int number, String name, String type, String baseType, boolean notNull, boolean hasDefault,
                  char identity, char generated) {
        boolean isIdentity() {
            return identity != ' ' && identity != '\0';
        }

        boolean isGenerated() {
            return generated != ' ' && generated != '\0';
        }
    }

    private static final String RELATION = """
            SELECT c.oid, c.relkind, pg_catalog.pg_get_userbyid(c.relowner), c.relowner,
                   pg_catalog.obj_description(c.oid, 'pg_class')
              FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = ? AND c.relname = ?""";

    private static final String COLUMNS = """
            SELECT a.attnum, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod),
                   pg_catalog.format_type(CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE a.atttypid END,
                                          CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END),
                   a.attnotnull, a.atthasdef, a.attidentity, a.attgenerated
              FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
             WHERE a.attrelid = ?::oid AND a.attnum > 0 AND NOT a.attisdropped
             ORDER BY a.attnum""";

    private final Connection connection;

    PostgresCatalog(Connection connection) {
        this.connection = connection;
    }

    Optional<Relation> relation(String schema, String name) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(RELATION)) {
            ps.setString(1, schema);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Relation(rs.getLong(1), schema, name, rs.getString(2).charAt(0),
                        rs.getString(3), rs.getLong(4), rs.getString(5)));
            }
        }
    }

    List<Column> columns(long relationOid) throws SQLException {
        List<Column> columns = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(COLUMNS)) {
            ps.setLong(1, relationOid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(new Column(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getBoolean(5), rs.getBoolean(6), flag(rs.getString(7)), flag(rs.getString(8))));
                }
            }
        }
        return columns;
    }

    /** Columns in ordinal order (dropped ones excluded); an empty shape when the relation does not exist. */
    TableShape shape(String schema, String name) throws SQLException {
        Optional<Relation> relation = relation(schema, name);
        if (relation.isEmpty()) {
            return new TableShape(List.of());
        }
        return new TableShape(columns(relation.get().oid()).stream()
                .map(c -> new ColumnShape(c.name(), c.type(), !c.notNull())).toList());
    }

    private static char flag(String value) {
        return value == null || value.isEmpty() ? ' ' : value.charAt(0);
    }
}

package io.dpone.backfill.postgres;

import io.dpone.backfill.core.publish.ColumnShape;
import io.dpone.backfill.core.publish.TableShape;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads relations and their columns from pg_catalog; creates and changes nothing. */
public final class PostgresCatalog {
    /** A relation by name: its oid, {@code relkind} ('r' table, 'p' partitioned, 'v' view, ...), owner and comment. */
    public record Relation(long oid, String schema, String name, char kind, String owner, long ownerOid, String comment) {
        public boolean isTable() {
            return kind == 'r';
        }
    }

    /**
     * One live column. {@code type} is {@code format_type(atttypid, atttypmod)}; {@code baseType} looks through a
     * domain; {@code identity} is ' ', 'a' (ALWAYS) or 'd' (BY DEFAULT); {@code generated} ' ' or 's' (STORED);
     * {@code typeId} and {@code typmod} are {@code atttypid} and {@code atttypmod}.
     */
    public record Column(int number, String name, String type, String baseType, boolean notNull, boolean hasDefault,
                  char identity, char generated, String defaultExpression, long typeId, int typmod) {
        public boolean isIdentity() {
            return identity != ' ' && identity != '\0';
        }

        public boolean isGenerated() {
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
                   a.attnotnull, a.atthasdef, a.attidentity, a.attgenerated,
                   pg_catalog.pg_get_expr(d.adbin, d.adrelid), a.atttypid::int8, a.atttypmod
              FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
              LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
             WHERE a.attrelid = ?::oid AND a.attnum > 0 AND NOT a.attisdropped
             ORDER BY a.attnum""";

    private final Connection connection;

    public PostgresCatalog(Connection connection) {
        this.connection = connection;
    }

    public Optional<Relation> relation(String schema, String name) throws SQLException {
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

    public List<Column> columns(long relationOid) throws SQLException {
        return withCatalogSearchPath(() -> readColumns(relationOid));
    }

    private List<Column> readColumns(long relationOid) throws SQLException {
        List<Column> columns = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(COLUMNS)) {
            ps.setLong(1, relationOid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(new Column(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getBoolean(5), rs.getBoolean(6), flag(rs.getString(7)), flag(rs.getString(8)),
                            rs.getString(9), rs.getLong(10), rs.getInt(11)));
                }
            }
        }
        return columns;
    }

    /**
     * Constraints and indexes of a relation as {@code name: definition}, sorted; what the catalog prints is stable
     * while the table keeps its name, so a change here is a real change.
     */
    private static final String CONSTRAINTS_AND_INDEXES = """
            SELECT 'constraint ' || conname || ': ' || pg_catalog.pg_get_constraintdef(oid, true)
              FROM pg_catalog.pg_constraint WHERE conrelid = ?::oid
            UNION ALL
            SELECT 'index ' || c.relname || ': ' || pg_catalog.pg_get_indexdef(i.indexrelid)
              FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid
             WHERE i.indrelid = ?::oid
             ORDER BY 1""";

    /** Columns in ordinal order (dropped ones excluded); an empty shape when the relation does not exist. */
    public TableShape shape(String schema, String name) throws SQLException {
        Optional<Relation> relation = relation(schema, name);
        if (relation.isEmpty()) {
            return new TableShape(List.of());
        }
        return new TableShape(columnShapes(relation.get().oid()));
    }

    /** The reviewed live target's full shape: columns as {@link #shape}, plus constraints and indexes. */
    public TableShape liveShape(String schema, String name) throws SQLException {
        Optional<Relation> relation = relation(schema, name);
        if (relation.isEmpty()) {
            return new TableShape(List.of());
        }
        List<String> constraints = withCatalogSearchPath(() -> {
            List<String> found = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(CONSTRAINTS_AND_INDEXES)) {
                ps.setLong(1, relation.get().oid());
                ps.setLong(2, relation.get().oid());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        found.add(rs.getString(1));
                    }
                }
            }
            return found;
        });
        return new TableShape(columnShapes(relation.get().oid()), constraints);
    }

    /**
     * Runs {@code read} with search_path = pg_catalog, so format_type, pg_get_expr and pg_get_constraintdef print
     * every user object schema-qualified whatever the session's path is. Without it a shape read by the driver
     * ("mood") and the same shape read inside the swap transaction, which pins the path ("public.mood"), differ, and
     * a table with a user-defined type could never be published. Inside a caller's transaction the path is put back.
     */
    private <T> T withCatalogSearchPath(PostgresJdbc.Work<T> read) throws SQLException {
        PostgresJdbc jdbc = new PostgresJdbc(connection);
        if (connection.getAutoCommit()) {
            return jdbc.inTransaction(() -> {
                jdbc.setLocal("search_path", "pg_catalog");
                return read.run();
            });
        }
        String previous = jdbc.strings("SELECT pg_catalog.current_setting('search_path')").get(0);
        jdbc.setLocal("search_path", "pg_catalog");
        try {
            return read.run();
        } finally {
            jdbc.setLocal("search_path", previous);
        }
    }

    private List<ColumnShape> columnShapes(long oid) throws SQLException {
        // A generated column's "default" is its generation expression: kept, so a changed expression is drift.
        return columns(oid).stream().map(c -> new ColumnShape(c.name(), c.type(), !c.notNull(), c.defaultExpression(),
                c.isGenerated(), c.isIdentity())).toList();
    }

    private static char flag(String value) {
        return value == null || value.isEmpty() ? ' ' : value.charAt(0);
    }
}

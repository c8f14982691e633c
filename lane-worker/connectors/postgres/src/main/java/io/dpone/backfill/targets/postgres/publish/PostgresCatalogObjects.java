package io.dpone.backfill.targets.postgres.publish;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads the indexes and constraints of a table that a rename would leave behind under their names: plain indexes,
 * primary key, unique, exclusion, check and foreign-key constraints (NOT NULL travels with the columns). Each
 * comes with what is needed to recreate it elsewhere: the catalog's own definition plus the exact head the catalog
 * prints before the part that does not name the table, computed with the server's own quoting.
 */
public final class PostgresCatalogObjects {
    enum Kind { INDEX, CONSTRAINT }

    /**
     * {@code definition}: {@code pg_get_indexdef} or {@code pg_get_constraintdef}. {@code definitionHead}: for an
     * index, {@code CREATE [UNIQUE] INDEX name ON schema.table USING }; for a self-referencing foreign key,
     * {@code FOREIGN KEY (cols) REFERENCES schema.table(}; otherwise null. {@code columnList} is the quoted key
     * column list of a self-referencing foreign key.
     */
    record CarriedObject(Kind kind, String name, char constraintType, boolean unique, String definition,
                         String definitionHead, String columnList, boolean validated, String comment,
                         String referencedSchema, String referencedTable) {
        /** Creation order: what foreign keys and exclusion rely on (unique indexes, keys) comes first. */
        int buildOrder() {
            return switch (constraintType) {
                case 'p' -> 0;
                case 'u', 'x' -> 1;
                case 'c' -> 3;
                case 'f' -> 4;
                default -> 2;
            };
        }

        boolean isForeignKey() {
            return constraintType == 'f';
        }

        /** A foreign key to {@code table} of {@code schema}. */
        boolean references(String schema, String table) {
            return isForeignKey() && schema.equals(referencedSchema) && table.equals(referencedTable);
        }

        boolean selfReferencing() {
            return definitionHead != null && kind == Kind.CONSTRAINT;
        }
    }

    private static final String INDEXES = """
            SELECT c.relname, i.indisunique, pg_catalog.pg_get_indexdef(i.indexrelid),
                   'CREATE ' || CASE WHEN i.indisunique THEN 'UNIQUE ' ELSE '' END || 'INDEX '
                     || pg_catalog.quote_ident(c.relname) || ' ON ' || pg_catalog.quote_ident(n.nspname) || '.'
                     || pg_catalog.quote_ident(t.relname) || ' USING ',
                   pg_catalog.obj_description(i.indexrelid, 'pg_class')
              FROM pg_catalog.pg_index i
              JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid
              JOIN pg_catalog.pg_class t ON t.oid = i.indrelid
              JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
             WHERE i.indrelid = ?::oid
               AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k
                                WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid
                                  AND k.contype IN ('p', 'u', 'x'))
             ORDER BY c.relname""";

    private static final String CONSTRAINTS = """
            SELECT k.conname, k.contype, pg_catalog.pg_get_constraintdef(k.oid), k.convalidated,
                   CASE WHEN k.contype = 'f' AND k.confrelid = k.conrelid THEN
                     'FOREIGN KEY (' || cols.list || ') REFERENCES ' || pg_catalog.quote_ident(n.nspname) || '.'
                       || pg_catalog.quote_ident(t.relname) || '(' END,
                   cols.list,
                   pg_catalog.obj_description(k.oid, 'pg_constraint'),
                   rn.nspname, r.relname
              FROM pg_catalog.pg_constraint k
              JOIN pg_catalog.pg_class t ON t.oid = k.conrelid
              JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
              LEFT JOIN pg_catalog.pg_class r ON r.oid = k.confrelid
              LEFT JOIN pg_catalog.pg_namespace rn ON rn.oid = r.relnamespace
              LEFT JOIN LATERAL (
                   SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY u.ord) AS list
                     FROM pg_catalog.unnest(k.conkey) WITH ORDINALITY u(attnum, ord)
                     JOIN pg_catalog.pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum) cols ON true
             WHERE k.conrelid = ?::oid AND k.contype IN ('p', 'u', 'x', 'c', 'f')
             ORDER BY k.conname""";

    private final Connection connection;

    PostgresCatalogObjects(Connection connection) {
        this.connection = connection;
    }

    /** Every carried object of the table, in an order in which they can be created. */
    List<CarriedObject> of(long tableOid) throws SQLException {
        List<CarriedObject> objects = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(INDEXES)) {
            ps.setLong(1, tableOid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    objects.add(new CarriedObject(Kind.INDEX, rs.getString(1), ' ', rs.getBoolean(2),
                            rs.getString(3), rs.getString(4), null, true, rs.getString(5), null, null));
                }
            }
        }
        try (PreparedStatement ps = connection.prepareStatement(CONSTRAINTS)) {
            ps.setLong(1, tableOid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    char type = rs.getString(2).charAt(0);
                    objects.add(new CarriedObject(Kind.CONSTRAINT, rs.getString(1), type, type == 'p' || type == 'u',
                            rs.getString(3), rs.getString(5), rs.getString(6), rs.getBoolean(4), rs.getString(7),
                            rs.getString(8), rs.getString(9)));
                }
            }
        }
        objects.sort(Comparator.comparingInt(CarriedObject::buildOrder).thenComparing(CarriedObject::name));
        return objects;
    }

    /** Whether the table has an index of that name (index names live in the schema namespace). */
    boolean hasIndex(long tableOid, String name) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("""
                SELECT 1 FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid
                 WHERE i.indrelid = ?::oid AND c.relname = ?""")) {
            ps.setLong(1, tableOid);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** The table's constraint of that name: null when absent, else whether it is validated. */
    Boolean constraintValidated(long tableOid, String name) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT convalidated FROM pg_catalog.pg_constraint WHERE conrelid = ?::oid AND conname = ?")) {
            ps.setLong(1, tableOid);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getBoolean(1) : null;
            }
        }
    }
}

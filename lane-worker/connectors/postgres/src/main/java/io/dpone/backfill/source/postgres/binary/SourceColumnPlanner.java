package io.dpone.backfill.source.postgres.binary;

import io.dpone.backfill.source.UnsupportedSourceTypeException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads pg_attribute and pg_type for the columns to load and decides, per column, what to project and how to
 * decode it. Every refusal (unknown table or column, unsupported type, non-UTF8 encoding) happens here, before
 * any row is copied.
 */
public final class SourceColumnPlanner {
    private static final String TABLE_OID = "SELECT c.oid FROM pg_catalog.pg_class c "
            + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?";
    private static final String ATTRIBUTES = "SELECT a.attname, a.atttypid, a.atttypmod, "
            + "pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull FROM pg_catalog.pg_attribute a "
            + "WHERE a.attrelid = ?::pg_catalog.oid AND a.attnum > 0 AND NOT a.attisdropped";
    private static final String TYPE = "SELECT t.typname, t.typtype, t.typbasetype, t.typtypmod, t.typcategory, "
            + "t.typelem, pg_catalog.format_type(t.oid, NULL) FROM pg_catalog.pg_type t WHERE t.oid = ?::pg_catalog.oid";
    private static final String ENCODINGS = "SELECT pg_catalog.current_setting('server_encoding'), "
            + "pg_catalog.current_setting('client_encoding')";
    private static final String CAST_TO_TEXT = "::pg_catalog.text";

    private final Connection connection;

    public SourceColumnPlanner(Connection connection) {
        this.connection = connection;
    }

    /** The plan for {@code columns} of {@code schema.table}, in the given order. */
    public SourceColumnPlan plan(String schema, String table, List<String> columns) throws SQLException {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("no columns to load from " + schema + "." + table);
        }
        Set<String> seen = new HashSet<>();
        for (String column : columns) {
            if (!seen.add(column)) {
                throw new IllegalArgumentException("column \"" + column + "\" is listed twice");
            }
        }
        requireUtf8();
        Map<String, Attribute> attributes = attributes(schema, table);
        List<PlannedColumn> planned = new ArrayList<>(columns.size());
        for (String column : columns) {
            Attribute attribute = attributes.get(column);
            if (attribute == null) {
                throw new IllegalArgumentException("table " + schema + "." + table + " has no column \"" + column + "\"");
            }
            planned.add(resolve(attribute));
        }
        return new SourceColumnPlan(schema, table, planned);
    }

    /**
     * Text fields arrive in the client encoding (pgjdbc insists on UTF8); a server in another encoding, SQL_ASCII
     * above all, may hold bytes that are not UTF-8 at all, so the loader refuses it rather than guess.
     */
    private void requireUtf8() throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(ENCODINGS); ResultSet rs = s.executeQuery()) {
            rs.next();
            String server = rs.getString(1);
            String client = rs.getString(2);
            if (!"UTF8".equalsIgnoreCase(server) || !"UTF8".equalsIgnoreCase(client)) {
                throw new IllegalStateException("the PostgreSQL binary loader needs UTF8 as server and client encoding; "
                        + "this session has server_encoding " + server + " and client_encoding " + client);
            }
        }
    }

    private Map<String, Attribute> attributes(String schema, String table) throws SQLException {
        long tableOid;
        try (PreparedStatement s = connection.prepareStatement(TABLE_OID)) {
            s.setString(1, schema);
            s.setString(2, table);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("no table " + schema + "." + table);
                }
                tableOid = rs.getLong(1);
            }
        }
        Map<String, Attribute> attributes = new HashMap<>();
        try (PreparedStatement s = connection.prepareStatement(ATTRIBUTES)) {
            s.setLong(1, tableOid);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    attributes.put(rs.getString(1), new Attribute(rs.getString(1), rs.getLong(2), rs.getInt(3), rs.getString(4),
                            !rs.getBoolean(5)));
                }
            }
        }
        return attributes;
    }

    private PlannedColumn resolve(Attribute attribute) throws SQLException {
        String column = SqlIdentifier.quote(attribute.name);
        TypeRow type = type(attribute.typeOid);
        int typmod = attribute.typmod;
        boolean domain = false;
        String chain = attribute.declaredType;
        // A domain may sit on another domain: walk down to the first non-domain type.
        while (type.typtype == 'd') {
            domain = true;
            typmod = type.typtypmod;
            type = type(type.typbasetype);
            chain = chain + " over " + type.formatted;
        }
        if (type.typtype == 'e' || (type.typcategory == 'A' && type.typelem != 0)) {
            PlannedColumn.Kind kind = domain ? PlannedColumn.Kind.DOMAIN
                    : type.typtype == 'e' ? PlannedColumn.Kind.ENUM : PlannedColumn.Kind.ARRAY;
            return new PlannedColumn(attribute.name, attribute.declaredType, kind, PgType.TEXT, -1, column + CAST_TO_TEXT,
                    attribute.nullable);
        }
        PgType arriving = type.typtype == 'b' ? PgType.byOid(type.oid) : null;
        if (arriving == null) {
            throw new UnsupportedSourceTypeException(attribute.name, chain, "column \"" + attribute.name + "\" has type "
                    + chain + ", which the PostgreSQL binary loader does not support: accepted are "
                    + Arrays.stream(PgType.values()).map(PgType::typname).collect(Collectors.joining(", "))
                    + ", enums, arrays and domains over these");
        }
        if (domain) {
            // Cast to the bare base type: the value already satisfies the domain's modifier, so none is needed.
            String projection = column + "::pg_catalog." + SqlIdentifier.quote(type.typname);
            return new PlannedColumn(attribute.name, attribute.declaredType, PlannedColumn.Kind.DOMAIN, arriving, typmod, projection,
                    attribute.nullable);
        }
        return new PlannedColumn(attribute.name, attribute.declaredType, PlannedColumn.Kind.BASE, arriving, typmod, column,
                attribute.nullable);
    }

    private TypeRow type(long oid) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(TYPE)) {
            s.setLong(1, oid);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("pg_type has no type with oid " + oid);
                }
                return new TypeRow(oid, rs.getString(1), rs.getString(2).charAt(0), rs.getLong(3), rs.getInt(4),
                        rs.getString(5).charAt(0), rs.getLong(6), rs.getString(7));
            }
        }
    }

    private record Attribute(String name, long typeOid, int typmod, String declaredType, boolean nullable) {
    }

    private record TypeRow(long oid, String typname, char typtype, long typbasetype, int typtypmod, char typcategory,
                           long typelem, String formatted) {
    }
}

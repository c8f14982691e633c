package io.dpone.backfill.cli.certify;

import io.dpone.backfill.cli.scratch.ScratchSchema;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The objects certify creates and, unless kept, drops: one new schema on the source database holding a copy of a
 * bounded sample of the campaign's source table, and one new schema on the target database (the same schema when
 * source and target are one PostgreSQL database) holding an empty copy of the campaign's target table's shape, the
 * scratch campaigns' ledger, shadows and backups. It refuses a schema that already exists, so it only ever drops
 * what it created; the user's own tables are only read.
 */
public final class CertifyScratch {
    static final String SOURCE_TABLE = "certify_source";
    static final String LIVE_TABLE = "certify_live";

    private final String schema;
    private final ConnectionSettings source;
    private final ConnectionSettings target;
    private final TargetDialect dialect;
    private final Consumer<String> log;
    private boolean sourceCreated;
    private boolean targetCreated;

    CertifyScratch(String schema, ConnectionSettings source, ConnectionSettings target, TargetDialect dialect, Consumer<String> log) {
        this.schema = schema;
        this.source = source;
        this.target = target;
        this.dialect = dialect;
        this.log = log;
    }

    String schema() {
        return schema;
    }

    /** Source and target are one PostgreSQL database: one scratch schema holds both tables. */
    boolean shared() {
        return dialect == TargetDialect.POSTGRES && source.jdbcUrl().equals(target.jdbcUrl());
    }

    /** Creates the source schema and copies at most {@code sampleRows} rows of {@code table}; returns the rows copied. */
    long createSource(String sourceSchema, String sourceTable, long sampleRows) throws SQLException {
        try (Connection c = source.open("backfill-certify")) {
            createPostgresSchema(c);
            sourceCreated = true;
            String copy = PostgresIdentifiers.qualified(schema, SOURCE_TABLE);
            String from = PostgresIdentifiers.qualified(sourceSchema, sourceTable);
            List<String> columns = insertableColumns(c, sourceSchema, sourceTable);
            String list = String.join(", ", columns.stream().map(PostgresIdentifiers::quote).toList());
            try (Statement s = c.createStatement()) {
                // Comments are left behind: a source comment is no business of the copy.
                s.execute("CREATE TABLE " + copy + " (LIKE " + from + " INCLUDING ALL EXCLUDING COMMENTS)");
                s.execute("INSERT INTO " + copy + " (" + list + ") OVERRIDING SYSTEM VALUE SELECT " + list + " FROM " + from
                        + " LIMIT " + sampleRows);
                s.execute("ANALYZE " + copy);
            }
            long rows = count(c, "SELECT count(*) FROM " + copy);
            log.accept("scratch source " + schema + "." + SOURCE_TABLE + " on " + source.redacted() + ": " + rows
                    + " rows copied from " + sourceSchema + "." + sourceTable);
            return rows;
        }
    }

    /** Creates the target schema (unless shared) and an empty table of the campaign's target table's shape. */
    void createTarget(String targetSchema, String targetTable) throws SQLException {
        if (dialect == TargetDialect.MSSQL) {
            new ScratchSchema(target, schema).create();
            targetCreated = true;
            try (Connection c = target.open("backfill-certify"); Statement s = c.createStatement()) {
                // Columns, types, nullability and identity; no keys or indexes (Babelfish cannot rename them at the swap).
                s.execute("SELECT TOP 0 * INTO " + dialect.qualified(schema, LIVE_TABLE) + " FROM "
                        + dialect.qualified(targetSchema, targetTable));
            }
        } else {
            try (Connection c = target.open("backfill-certify")) {
                if (!shared()) {
                    createPostgresSchema(c);
                }
                targetCreated = true;
                try (Statement s = c.createStatement()) {
                    // A comment could be an earlier campaign's ownership stamp: it is not copied.
                    s.execute("CREATE TABLE " + dialect.qualified(schema, LIVE_TABLE) + " (LIKE "
                            + dialect.qualified(targetSchema, targetTable) + " INCLUDING ALL EXCLUDING COMMENTS)");
                }
            }
        }
        log.accept("scratch target " + schema + "." + LIVE_TABLE + " on " + target.redacted() + " (shape of "
                + targetSchema + "." + targetTable + "; the scratch ledger, shadows and backups go in " + schema + ")");
    }

    /** Empties the scratch live table before a scenario, so the old table (0 rows) and the new one differ. */
    void emptyLive() throws SQLException {
        try (Connection c = target.open("backfill-certify"); Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + dialect.qualified(schema, LIVE_TABLE));
        }
    }

    /** Drops what this run created; failures are reported, never hidden. */
    List<String> drop() {
        List<String> failures = new ArrayList<>();
        if (targetCreated && !shared()) {
            try {
                if (dialect == TargetDialect.MSSQL) {
                    new ScratchSchema(target, schema).drop();
                } else {
                    dropPostgres(target);
                }
                log.accept("scratch schema " + schema + " dropped on the target");
            } catch (SQLException | RuntimeException e) {
                failures.add("target schema " + schema + ": " + e.getMessage());
            }
        }
        if (sourceCreated) {
            try {
                dropPostgres(source);
                log.accept("scratch schema " + schema + " dropped on the source");
            } catch (SQLException | RuntimeException e) {
                failures.add("source schema " + schema + ": " + e.getMessage());
            }
        }
        return failures;
    }

    private void dropPostgres(ConnectionSettings server) throws SQLException {
        try (Connection c = server.open("backfill-certify"); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + PostgresIdentifiers.quote(schema) + " CASCADE");
        }
    }

    private void createPostgresSchema(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_namespace WHERE nspname = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getLong(1) > 0) {
                    throw new IllegalStateException("schema " + schema + " already exists; the scratch schema must be new"
                            + " (it is dropped at the end): pass another --scratch-schema");
                }
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + PostgresIdentifiers.quote(schema));
        }
    }

    /** Columns an INSERT may name: generated columns are computed by the copy itself. */
    private static List<String> insertableColumns(Connection c, String schema, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT a.attname FROM pg_attribute a JOIN pg_class t ON t.oid = a.attrelid"
                + " JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = ? AND t.relname = ? AND a.attnum > 0"
                + " AND NOT a.attisdropped AND a.attgenerated = '' ORDER BY a.attnum")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("source table " + schema + "." + table + " has no columns to copy");
        }
        return out;
    }

    static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

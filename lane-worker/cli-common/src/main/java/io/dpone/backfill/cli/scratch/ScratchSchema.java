package io.dpone.backfill.cli.scratch;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A schema the bench or the demo creates on a user's SQL Server and removes afterwards, with everything in it.
 * It refuses a schema that already exists: the tools only ever drop what they created.
 */
public final class ScratchSchema {
    private final ConnectionSettings server;
    private final String name;

    public ScratchSchema(ConnectionSettings server, String name) {
        this.server = server;
        this.name = name;
    }

    public String name() {
        return name;
    }

    public void create() throws SQLException {
        try (Connection c = server.open("backfill-scratch")) {
            if (exists(c)) {
                throw new IllegalStateException("schema " + name + " already exists on " + server.redacted()
                        + "; the scratch schema must be new (it is dropped at the end)");
            }
            try (Statement s = c.createStatement()) {
                // CREATE SCHEMA must be the only statement of its batch.
                s.execute("EXEC(N'CREATE SCHEMA " + MssqlIdentifiers.inLiteral(MssqlIdentifiers.quote(name)) + "')");
            }
        }
    }

    /** Drops tables whose name starts with {@code prefix} (foreign keys first). */
    public void dropTablesNamedLike(String prefix) throws SQLException {
        try (Connection c = server.open("backfill-scratch")) {
            dropTables(c, prefix);
        }
    }

    public void drop() throws SQLException {
        try (Connection c = server.open("backfill-scratch")) {
            if (!exists(c)) {
                return;
            }
            dropTables(c, "");
            try (Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA " + MssqlIdentifiers.quote(name));
            }
        }
    }

    private void dropTables(Connection c, String prefix) throws SQLException {
        List<String> foreignKeys = names(c, "SELECT fk.name, t.name FROM sys.foreign_keys fk JOIN sys.tables t ON t.object_id = fk.parent_object_id"
                + " WHERE SCHEMA_NAME(t.schema_id) = ? AND LEFT(t.name, LEN(?)) = ?", prefix, true);
        List<String> tables = names(c, "SELECT t.name, NULL FROM sys.tables t WHERE SCHEMA_NAME(t.schema_id) = ? AND LEFT(t.name, LEN(?)) = ?",
                prefix, false);
        try (Statement s = c.createStatement()) {
            for (String fk : foreignKeys) {
                s.execute(fk);
            }
            for (String table : tables) {
                s.execute("DROP TABLE " + MssqlIdentifiers.quote(name) + "." + MssqlIdentifiers.quote(table));
            }
        }
    }

    private List<String> names(Connection c, String sql, String prefix, boolean foreignKeys) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            ps.setString(2, prefix);
            ps.setString(3, prefix);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(foreignKeys
                            ? "ALTER TABLE " + MssqlIdentifiers.quote(name) + "." + MssqlIdentifiers.quote(rs.getString(2))
                            + " DROP CONSTRAINT " + MssqlIdentifiers.quote(rs.getString(1))
                            : rs.getString(1));
                }
            }
        }
        return out;
    }

    private boolean exists(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM sys.schemas WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }
}

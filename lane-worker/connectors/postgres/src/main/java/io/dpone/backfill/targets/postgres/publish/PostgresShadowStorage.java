package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The shadow's storage parameters (reloptions), ADR 0025. While lanes load it, autovacuum is off on the shadow and
 * its TOAST table: a vacuum of a table that only grows competes with the lanes for the target's CPU, and the index
 * build after loading waits for it to be cancelled. At publication the shadow takes exactly the live table's
 * parameters (fillfactor, autovacuum settings, TOAST settings), which the renames would otherwise leave on the
 * backup; autovacuum then finds the inserts counted against the published table and vacuums it as usual.
 */
final class PostgresShadowStorage {
    /** The clause that creates the shadow with autovacuum off; TOAST options are ignored by a table without TOAST. */
    static final String WHILE_LOADING = " WITH (autovacuum_enabled = off, toast.autovacuum_enabled = off)";

    // Names come from the catalog and are concatenated into ALTER TABLE: only plain option names pass.
    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final String OPTIONS = """
            SELECT '' AS prefix, o.option_name, pg_catalog.format('%L', o.option_value)
              FROM pg_catalog.pg_class c, pg_catalog.pg_options_to_table(c.reloptions) o
             WHERE c.oid = ?::oid
            UNION ALL
            SELECT 'toast.', o.option_name, pg_catalog.format('%L', o.option_value)
              FROM pg_catalog.pg_class c JOIN pg_catalog.pg_class t ON t.oid = c.reltoastrelid,
                   pg_catalog.pg_options_to_table(t.reloptions) o
             WHERE c.oid = ?::oid
             ORDER BY 1, 2""";

    /** One parameter: {@code prefix} is empty for the table's own, {@code toast.} for its TOAST table's. */
    record Option(String prefix, String name, String literal) {
        String key() {
            return prefix + name;
        }
    }

    private final Connection connection;

    PostgresShadowStorage(Connection connection) {
        this.connection = connection;
    }

    /** Replaces every storage parameter of {@code to} (and its TOAST table) by those of {@code from}. */
    void carry(Relation from, Relation to) throws SQLException {
        String table = PostgresIdentifiers.qualified(to.schema(), to.name());
        List<Option> own = of(to.oid());
        if (!own.isEmpty()) {
            PostgresShadowSql.execute(connection, "ALTER TABLE " + table + " RESET ("
                    + String.join(", ", own.stream().map(Option::key).toList()) + ")");
        }
        List<Option> live = of(from.oid());
        if (!live.isEmpty()) {
            PostgresShadowSql.execute(connection, "ALTER TABLE " + table + " SET ("
                    + String.join(", ", live.stream().map(o -> o.key() + " = " + o.literal()).toList()) + ")");
        }
    }

    /** The table's and its TOAST table's storage parameters, in a stable order. */
    List<Option> of(long relation) throws SQLException {
        List<Option> options = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(OPTIONS)) {
            ps.setLong(1, relation);
            ps.setLong(2, relation);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(2);
                    if (!NAME.matcher(name).matches()) {
                        throw new IllegalStateException("storage parameter " + name + " has an unexpected name; nothing was changed");
                    }
                    options.add(new Option(rs.getString(1), name, rs.getString(3)));
                }
            }
        }
        return options;
    }
}

package io.dpone.backfill.targets.postgres.ledger;

import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.targets.ScriptTransaction;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Applies the versioned ledger script ({@code ledger/v1/postgresql.sql}) to {@code spec.state.schema}, idempotently. */
public final class PostgresLedgerSchema {
    public static final int VERSION = 1;
    private static final String SCRIPT = "/ledger/v1/postgresql.sql";

    private PostgresLedgerSchema() {
    }

    /**
     * Runs the script in one transaction under an advisory lock, so concurrent first runs do not race; a ledger that
     * already has every table, index and column the script creates is left alone, checked before the lock and again
     * once it is held. The script's ALTER and CREATE INDEX
     * take table locks even when there is nothing to add, and a driver applying it while another one writes the
     * ledger could deadlock with it.
     */
    public static void apply(Connection connection, String stateSchema) throws SQLException {
        String script = script();
        if (current(connection, stateSchema, script)) {
            return;
        }
        String sql = script.replace("${schema}", PostgresIdentifiers.quote(stateSchema));
        ScriptTransaction.run(connection, s -> {
            s.execute("SELECT pg_advisory_xact_lock(hashtextextended('dpone-backfill-ledger:' || " + literal(stateSchema) + ", 0))");
            // Checked again under the lock: a driver that waited here for another one's first run finds the ledger
            // current now, and must not take the script's table locks while that driver writes the ledger (40P01).
            if (!current(connection, stateSchema, script)) {
                s.execute(sql);
            }
        });
    }

    private static final Pattern TABLE = Pattern.compile("CREATE TABLE IF NOT EXISTS \\$\\{schema}\\.(\\w+)");
    private static final Pattern INDEX = Pattern.compile("CREATE INDEX IF NOT EXISTS (\\w+) ON");
    private static final Pattern COLUMN = Pattern.compile("ALTER TABLE \\$\\{schema}\\.(\\w+) ADD COLUMN IF NOT EXISTS (\\w+)");

    /** Whether every table, index and added column the script names exists already (read only, no table lock). */
    private static boolean current(Connection connection, String stateSchema, String script) throws SQLException {
        PostgresJdbc sql = new PostgresJdbc(connection);
        Matcher m = TABLE.matcher(script);
        int tables = 0;
        while (m.find()) {
            tables++;
            if (!present(sql, "SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                    + " WHERE n.nspname = ? AND c.relname = ? AND c.relkind = 'r'", stateSchema, m.group(1))) {
                return false;
            }
        }
        if (tables == 0) {
            throw new IllegalStateException(SCRIPT + " names no table: the schema check cannot read it");
        }
        m = INDEX.matcher(script);
        while (m.find()) {
            if (!present(sql, "SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                    + " WHERE n.nspname = ? AND c.relname = ? AND c.relkind = 'i'", stateSchema, m.group(1))) {
                return false;
            }
        }
        m = COLUMN.matcher(script);
        while (m.find()) {
            if (!present(sql, "SELECT 1 FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid"
                    + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?"
                    + " AND a.attname = ? AND NOT a.attisdropped", stateSchema, m.group(1), m.group(2))) {
                return false;
            }
        }
        return present(sql, "SELECT 1 FROM " + table(stateSchema, "ledger_version") + " WHERE version = ?", VERSION);
    }

    private static boolean present(PostgresJdbc sql, String query, Object... params) throws SQLException {
        return sql.one(query, rs -> true, params).isPresent();
    }

    /** Qualified, quoted name of a ledger table. */
    public static String table(String stateSchema, String table) {
        return PostgresIdentifiers.quote(stateSchema) + "." + PostgresIdentifiers.quote(table);
    }

    static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    private static String script() {
        try (InputStream in = PostgresLedgerSchema.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException("missing " + SCRIPT + " on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

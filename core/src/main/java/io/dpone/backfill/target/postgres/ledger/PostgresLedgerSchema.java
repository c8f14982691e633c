package io.dpone.backfill.target.postgres.ledger;

import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** Applies the versioned ledger script ({@code ledger/v1/postgresql.sql}) to {@code spec.state.schema}, idempotently. */
public final class PostgresLedgerSchema {
    public static final int VERSION = 1;
    private static final String SCRIPT = "/ledger/v1/postgresql.sql";

    private PostgresLedgerSchema() {
    }

    /** Runs the script in one transaction under an advisory lock, so concurrent first runs do not race. */
    public static void apply(Connection connection, String stateSchema) throws SQLException {
        String sql = script().replace("${schema}", PostgresIdentifiers.quote(stateSchema));
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement s = connection.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(hashtextextended('dpone-backfill-ledger:' || " + literal(stateSchema) + ", 0))");
            s.execute(sql);
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
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

package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.ScriptTransaction;
import io.dpone.backfill.targets.mssql.MssqlAppLock;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies the versioned ledger script ({@code ledger/v1/sqlserver.sql}) to {@code spec.state.schema}: its batches in
 * one transaction, under an exclusive application lock named for the schema, so concurrent first runs do not race
 * (the second waits, then finds every object and creates nothing).
 */
final class MssqlLedgerSchema {
    static final int VERSION = 1;
    static final String SCRIPT = "/ledger/v1/sqlserver.sql";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-z_]+)}");

    private MssqlLedgerSchema() {
    }

    static void apply(Connection connection, String stateSchema, Duration lockTimeout) throws SQLException {
        List<String> batches = batches(stateSchema);
        String lock = lockName(stateSchema);
        // Taken in autocommit: a session lock needs no open transaction and outlives the commit, then is released.
        MssqlAppLock.acquire(connection, lock, lockTimeout);
        boolean applied = false;
        try {
            ScriptTransaction.run(connection, s -> {
                for (String batch : batches) {
                    s.execute(batch);
                }
            });
            applied = true;
        } finally {
            releaseQuietlyOnFailure(connection, lock, applied);
        }
    }

    /** A failed release must not hide why the script failed; after a success it is reported (the lock may linger). */
    private static void releaseQuietlyOnFailure(Connection connection, String lock, boolean applied) throws SQLException {
        try {
            MssqlAppLock.release(connection, lock);
        } catch (SQLException e) {
            if (applied) {
                throw e;
            }
        }
    }

    static String lockName(String stateSchema) {
        return "dpone-backfill-ledger:" + stateSchema;
    }

    /**
     * The script's batches (split on lines holding only GO) with the schema placeholders filled in, in one pass over
     * the script: a name holding {@code ${schema}} is text, never expanded again inside its own quotes.
     */
    static List<String> batches(String stateSchema) {
        String quoted = MssqlIdentifiers.quote(stateSchema);
        Map<String, String> values = Map.of("schema", quoted, "schema_in_literal", MssqlIdentifiers.inLiteral(quoted),
                "schema_name_in_literal", MssqlIdentifiers.inLiteral(stateSchema));
        Matcher placeholder = PLACEHOLDER.matcher(script());
        StringBuilder filled = new StringBuilder();
        while (placeholder.find()) {
            String value = values.get(placeholder.group(1));
            if (value == null) {
                throw new IllegalStateException(SCRIPT + " holds an unknown placeholder " + placeholder.group());
            }
            placeholder.appendReplacement(filled, Matcher.quoteReplacement(value));
        }
        placeholder.appendTail(filled);
        String script = filled.toString();
        List<String> batches = new ArrayList<>();
        StringBuilder batch = new StringBuilder();
        for (String line : script.split("\\R")) {
            if (line.strip().equalsIgnoreCase("GO")) {
                addIfStatement(batches, batch);
                batch.setLength(0);
            } else {
                batch.append(line).append('\n');
            }
        }
        addIfStatement(batches, batch);
        return batches;
    }

    private static void addIfStatement(List<String> batches, StringBuilder batch) {
        boolean onlyComments = batch.toString().lines().map(String::strip)
                .allMatch(l -> l.isEmpty() || l.startsWith("--"));
        if (!onlyComments) {
            batches.add(batch.toString());
        }
    }

    private static String script() {
        try (InputStream in = MssqlLedgerSchema.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException("missing " + SCRIPT + " on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

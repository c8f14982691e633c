package io.dpone.backfill.postgres;

import io.dpone.backfill.core.campaign.IdentifierLimit;
import io.dpone.backfill.core.validation.IdentifierRules;

/** Quotes identifiers for PostgreSQL; refuses any name that did not pass the identifier rules. */
public final class PostgresIdentifiers {
    private PostgresIdentifiers() {
    }

    public static String quote(String name) {
        IdentifierRules.problem(name, IdentifierLimit.POSTGRES).ifPresent(p -> {
            throw new IllegalArgumentException("unsafe identifier: " + p);
        });
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    public static String qualified(String schema, String table) {
        return quote(schema) + "." + quote(table);
    }
}

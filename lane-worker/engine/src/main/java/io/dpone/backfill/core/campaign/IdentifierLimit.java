package io.dpone.backfill.core.campaign;

import java.nio.charset.StandardCharsets;

/**
 * Identifier length limits of each engine ({@link TargetType#identifierLimit()} says which a target has). PostgreSQL truncates names past 63 bytes (NAMEDATALEN - 1, counted in
 * the database encoding, UTF-8 here); SQL Server's sysname holds 128 UTF-16 code units. Names are never truncated
 * silently: a name over the limit is an error, because truncation could make two names collide.
 */
public enum IdentifierLimit {
    POSTGRES(63, "bytes (UTF-8)") {
        @Override
        public int measure(String name) {
            return name.getBytes(StandardCharsets.UTF_8).length;
        }
    },
    MSSQL(128, "characters") {
        @Override
        public int measure(String name) {
            return name.length();
        }
    };

    private final int max;
    private final String unit;

    IdentifierLimit(int max, String unit) {
        this.max = max;
        this.unit = unit;
    }

    public abstract int measure(String name);

    public int max() {
        return max;
    }

    public String unit() {
        return unit;
    }

    public boolean fits(String name) {
        return measure(name) <= max;
    }
}

package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Target database engine, as {@code spec.target.type} names it: selects the adapter, and holds what the domain must
 * know of each engine before any connection (default schema, identifier limits). The one place the domain lists them.
 */
public enum TargetType {
    @JsonProperty("mssql") MSSQL("dbo", IdentifierLimit.MSSQL, false),
    @JsonProperty("postgres") POSTGRES("public", IdentifierLimit.POSTGRES, true);

    private final String defaultSchema;
    private final IdentifierLimit identifierLimit;
    private final boolean sourceEngine;

    TargetType(String defaultSchema, IdentifierLimit identifierLimit, boolean sourceEngine) {
        this.defaultSchema = defaultSchema;
        this.identifierLimit = identifierLimit;
        this.sourceEngine = sourceEngine;
    }

    /** How long this engine's identifiers may be; names are never truncated. */
    public IdentifierLimit identifierLimit() {
        return identifierLimit;
    }

    /**
     * True when this target is the source's engine (PostgreSQL), so one connection Secret, schema and table can name
     * the source table itself.
     */
    public boolean isSourceEngine() {
        return sourceEngine;
    }

    public String defaultSchema() {
        return defaultSchema;
    }

    public String wireName() {
        return this == MSSQL ? "mssql" : "postgres";
    }

    /** The type whose {@link #wireName()} is {@code name} (as {@code spec.target.type} spells it). */
    public static java.util.Optional<TargetType> fromWireName(String name) {
        return java.util.Arrays.stream(values()).filter(t -> t.wireName().equals(name)).findFirst();
    }

    /** Every wire name, for a message that lists what is accepted. */
    public static java.util.List<String> wireNames() {
        return java.util.Arrays.stream(values()).map(TargetType::wireName).toList();
    }
}

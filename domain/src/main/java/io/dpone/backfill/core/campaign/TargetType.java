package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Target database engine; selects the dialect adapter and the identifier limits. */
public enum TargetType {
    @JsonProperty("mssql") MSSQL("dbo"),
    @JsonProperty("postgres") POSTGRES("public");

    private final String defaultSchema;

    TargetType(String defaultSchema) {
        this.defaultSchema = defaultSchema;
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

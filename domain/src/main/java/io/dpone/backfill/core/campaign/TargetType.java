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
}

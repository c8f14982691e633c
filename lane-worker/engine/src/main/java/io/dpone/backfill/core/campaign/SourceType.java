package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Source database engine, as {@code spec.source.type} names it: selects the source adapter. Only postgres so far. */
public enum SourceType {
    @JsonProperty("postgres") POSTGRES;

    public String wireName() {
        return "postgres";
    }

    /** The type whose {@link #wireName()} is {@code name} (as {@code spec.source.type} spells it). */
    public static java.util.Optional<SourceType> fromWireName(String name) {
        return java.util.Arrays.stream(values()).filter(t -> t.wireName().equals(name)).findFirst();
    }

    /** Every wire name, for a message that lists what is accepted. */
    public static java.util.List<String> wireNames() {
        return java.util.Arrays.stream(values()).map(SourceType::wireName).toList();
    }
}

package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Locale;

/**
 * How a target column's name follows from a source column's when no explicit pair names it (issue 27): the same
 * name, the same name in any case, or a snake_case source name in the PascalCase or camelCase the target's platform
 * uses ({@code album_id} to {@code AlbumId} or {@code albumId}).
 */
public enum ColumnNaming {
    @JsonProperty("exact") EXACT,
    @JsonProperty("case-insensitive") CASE_INSENSITIVE,
    @JsonProperty("snake-to-pascal") SNAKE_TO_PASCAL,
    @JsonProperty("snake-to-camel") SNAKE_TO_CAMEL;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether this rule names {@code target} after {@code source}, target names compared exactly. */
    public boolean matches(String source, String target) {
        return matches(source, target, IdentifierComparison.EXACT);
    }

    /** The same, {@code target} compared with the name this rule gives as the target's database compares names. */
    public boolean matches(String source, String target, IdentifierComparison targetNames) {
        return switch (this) {
            case EXACT -> targetNames.same(source, target);
            case CASE_INSENSITIVE -> source.toLowerCase(Locale.ROOT).equals(target.toLowerCase(Locale.ROOT));
            case SNAKE_TO_PASCAL, SNAKE_TO_CAMEL -> targetNames.same(targetName(source), target);
        };
    }

    /**
     * The target name this rule gives {@code source}: the same name for {@code exact} and {@code case-insensitive};
     * for the snake rules, each {@code _}-separated word capitalised (the first one too for PascalCase), the rest of
     * each word as it is.
     */
    public String targetName(String source) {
        if (this == EXACT || this == CASE_INSENSITIVE) {
            return source;
        }
        StringBuilder name = new StringBuilder(source.length());
        boolean first = true;
        for (String word : source.split("_", -1)) {
            if (word.isEmpty()) {
                continue;
            }
            boolean capital = !first || this == SNAKE_TO_PASCAL;
            name.append(capital ? word.substring(0, 1).toUpperCase(Locale.ROOT) + word.substring(1) : word);
            first = false;
        }
        return name.length() == 0 ? source : name.toString();
    }

    public static ColumnNaming fromWire(String wire) {
        for (ColumnNaming n : values()) {
            if (n.wireName().equals(wire)) {
                return n;
            }
        }
        return null;
    }
}

package io.dpone.backfill.wiring;

import java.util.List;

/** The server sessions one lane or driver session opened, by server: ended after that session was abandoned. */
public record StaleSessionIds(List<String> source, List<String> target) {
    public static final StaleSessionIds NONE = new StaleSessionIds(List.of(), List.of());

    public boolean isEmpty() {
        return source.stream().allMatch(java.util.Objects::isNull) && target.stream().allMatch(java.util.Objects::isNull);
    }
}

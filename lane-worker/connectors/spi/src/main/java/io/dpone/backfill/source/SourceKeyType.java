package io.dpone.backfill.source;

/**
 * A source column's type as a foreign-key probe compares values with it: its name in the source (without modifier,
 * e.g. {@code numeric}, for messages) and its family ({@link TypeFamily#OTHER} for a type a probe only compares as
 * text, such as a domain or an enum).
 */
public record SourceKeyType(String name, TypeFamily family) {
}

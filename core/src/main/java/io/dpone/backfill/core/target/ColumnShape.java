package io.dpone.backfill.core.target;

/** One column as the catalog describes it: name, the engine's type text, nullability. */
public record ColumnShape(String name, String type, boolean nullable) {
}

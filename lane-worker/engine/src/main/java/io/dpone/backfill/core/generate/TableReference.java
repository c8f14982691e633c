package io.dpone.backfill.core.generate;

/** A foreign key of {@code table} referencing {@code referenced}, both in one schema, by table name. */
public record TableReference(String table, String referenced) {
}

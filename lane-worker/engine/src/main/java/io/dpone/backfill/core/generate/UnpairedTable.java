package io.dpone.backfill.core.generate;

/** A table {@code backfill generate} could not pair, on the source or the target side, and why. */
public record UnpairedTable(String side, String table, String why) {
}

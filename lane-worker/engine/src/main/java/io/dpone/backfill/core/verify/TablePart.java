package io.dpone.backfill.core.verify;

/**
 * One of the parts a target splits a loaded table into so that several sessions read it at once (ADR 0036): every
 * row is in exactly one part. {@code from} and {@code to} are positions only the target that made the part reads
 * (PostgreSQL: heap blocks); {@code to} is -1 for a part open at its end, so rows past the measured end are read.
 */
public record TablePart(int index, int count, long from, long to) {
    /** The whole table, read by one session. */
    public static final TablePart WHOLE = new TablePart(0, 1, 0, -1);

    public TablePart {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("part " + index + " of " + count + " does not exist");
        }
        if (from < 0 || to != -1 && to < from) {
            throw new IllegalArgumentException("part " + index + " spans [" + from + ", " + to + ")");
        }
    }

    public boolean whole() {
        return count == 1 && from == 0 && to == -1;
    }
}

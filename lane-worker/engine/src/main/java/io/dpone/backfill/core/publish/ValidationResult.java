package io.dpone.backfill.core.publish;

/**
 * Exact validation of a loaded table: row count against the receipts, NULL and duplicate unique keys.
 * {@code duplicatesRuledOutBy} names the table's unique index on the key when it, not a count, proved that no key is
 * duplicated; null when the duplicates were counted.
 */
public record ValidationResult(long expectedRows, long actualRows, long nullKeys, long duplicateKeys,
                               String duplicatesRuledOutBy) {
    public ValidationResult(long expectedRows, long actualRows, long nullKeys, long duplicateKeys) {
        this(expectedRows, actualRows, nullKeys, duplicateKeys, null);
    }

    public boolean passed() {
        return expectedRows == actualRows && nullKeys == 0 && duplicateKeys == 0;
    }

    public String describe() {
        return "expected " + expectedRows + " rows, found " + actualRows + "; " + nullKeys + " NULL keys, "
                + duplicateKeys + " duplicate keys"
                + (duplicatesRuledOutBy == null ? "" : " (unique index " + duplicatesRuledOutBy + ")");
    }
}

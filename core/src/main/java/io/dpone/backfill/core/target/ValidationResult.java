package io.dpone.backfill.core.target;

/** Exact validation of a loaded table: row count against the receipts, NULL and duplicate unique keys. */
public record ValidationResult(long expectedRows, long actualRows, long nullKeys, long duplicateKeys) {
    public boolean passed() {
        return expectedRows == actualRows && nullKeys == 0 && duplicateKeys == 0;
    }

    public String describe() {
        return "expected " + expectedRows + " rows, found " + actualRows + "; " + nullKeys + " NULL keys, "
                + duplicateKeys + " duplicate keys";
    }
}

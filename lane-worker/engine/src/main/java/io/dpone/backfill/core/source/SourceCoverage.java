package io.dpone.backfill.core.source;

/**
 * Whether every source row belongs to a chunk: {@code uncoveredRows} counted by a query, or null when the
 * catalog proves there can be none ({@code basis} says which). Validation blocks publication on any uncovered row.
 */
public record SourceCoverage(Long uncoveredRows, String basis) {
    public static SourceCoverage counted(long rows, String basis) {
        return new SourceCoverage(rows, basis);
    }

    public static SourceCoverage notNullInCatalog(String column) {
        return new SourceCoverage(null, "not counted: chunk column " + column + " is NOT NULL in the source catalog");
    }

    /** Physical chunks: every tuple lives in some block, and the block ranges cover {@code [0, infinity)}. */
    public static SourceCoverage blockRanges() {
        return new SourceCoverage(null, "not counted: physical chunks are block ranges covering every block of the heap");
    }

    public boolean complete() {
        return uncoveredRows == null || uncoveredRows == 0;
    }

    public String describe() {
        return uncoveredRows == null ? basis : uncoveredRows + " source row(s) belong to no chunk (" + basis + ")";
    }
}

package io.dpone.backfill.core.source;

import java.util.List;

/**
 * Rows per chunk as the source estimated them at preparation, in chunk-id order, and the basis of the estimate
 * ({@code "pg_stats histogram of 101 bounds, 600000 rows"}, {@code "sample of 30511 rows (TABLESAMPLE SYSTEM 5%)"}).
 * Advisory: it feeds the ETA only, never a decision about the data. {@link #none} says why there is none.
 */
public record ChunkRowEstimates(String basis, List<Long> rows) {
    public ChunkRowEstimates {
        rows = rows == null ? List.of() : List.copyOf(rows);
    }

    public static ChunkRowEstimates none(String reason) {
        return new ChunkRowEstimates("none: " + reason, List.of());
    }

    public boolean present() {
        return !rows.isEmpty();
    }

    public long total() {
        return rows.stream().mapToLong(Long::longValue).sum();
    }
}

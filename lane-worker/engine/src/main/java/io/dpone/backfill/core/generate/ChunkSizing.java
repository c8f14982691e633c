package io.dpone.backfill.core.generate;

/**
 * The chunk kind and count {@code backfill generate} proposes for a table: key ranges over a single integer or uuid
 * primary key, about {@value #ROWS_PER_CHUNK} rows a chunk; block ranges otherwise (composite or other keys), about
 * {@value #PAGES_PER_CHUNK} heap pages (64 MiB) a chunk. Between 1 and {@value #MAX_CHUNKS} chunks.
 */
public record ChunkSizing(String kind, String column, int buckets, Long lowerBound, Long upperBound) {
    static final long ROWS_PER_CHUNK = 250_000;
    static final long PAGES_PER_CHUNK = 8_192;
    static final int MAX_CHUNKS = 16_384;

    static ChunkSizing of(SourceTableFacts table) {
        if (table.primaryKey().size() == 1 && table.keyKind() == SourceTableFacts.KeyKind.INTEGER) {
            long lower = table.minKey() == null ? 1 : table.minKey();
            long upper = table.maxKey() == null ? lower : Math.max(lower, table.maxKey());
            // Never more chunks than keys: an integer range of n keys cannot be cut into more than n ranges.
            long keys = upper - lower + 1;
            int buckets = (int) Math.max(1, Math.min(Math.min(keys, MAX_CHUNKS), ceil(table.rows(), ROWS_PER_CHUNK)));
            return new ChunkSizing("integer", table.primaryKey().get(0), buckets, lower, upper);
        }
        if (table.primaryKey().size() == 1 && table.keyKind() == SourceTableFacts.KeyKind.UUID) {
            return new ChunkSizing("uuid", table.primaryKey().get(0),
                    (int) Math.max(1, Math.min(MAX_CHUNKS, ceil(table.rows(), ROWS_PER_CHUNK))), null, null);
        }
        return new ChunkSizing("physical", null, (int) Math.max(1, Math.min(MAX_CHUNKS, ceil(table.pages(), PAGES_PER_CHUNK))),
                null, null);
    }

    private static long ceil(long value, long per) {
        return (Math.max(0, value) + per - 1) / per;
    }
}

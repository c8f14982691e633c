package io.dpone.backfill.core.generate;

import java.util.Locale;

/**
 * The chunk kind and count {@code backfill generate} proposes for a table, and why: key ranges over a single integer
 * or uuid primary key whose order follows the heap's, about {@value #ROWS_PER_CHUNK} rows a chunk; block ranges
 * otherwise (composite or other keys, or a key the heap holds out of order), about {@value #PAGES_PER_CHUNK} heap
 * pages (64 MiB) a chunk. Between 1 and {@value #MAX_CHUNKS} chunks.
 *
 * <p>Out of order means (ADR 0055): a key-range chunk reads the pages its in-order rows fill once, plus about one page
 * per row the heap order scatters, a share {@code 1 - |correlation|} of them; over the campaign that is one pass plus
 * {@code (1 - |correlation|) * rows} page visits, so key ranges stay within two passes only while
 * {@code |correlation| >= 1 - pages / rows}. A single chunk reads the table once whatever the order.
 */
public record ChunkSizing(String kind, String column, int buckets, Long lowerBound, Long upperBound, String why) {
    static final long ROWS_PER_CHUNK = 250_000;
    static final long PAGES_PER_CHUNK = 8_192;
    static final int MAX_CHUNKS = 16_384;

    static ChunkSizing of(SourceTableFacts table) {
        if (table.primaryKey().size() != 1 || table.keyKind() == SourceTableFacts.KeyKind.OTHER) {
            return physical(table, table.primaryKey().size() == 1 ? "key is neither integer nor uuid" : "composite key");
        }
        String key = table.primaryKey().get(0);
        Double c = table.keyCorrelation();
        int keyChunks = (int) Math.max(1, Math.min(MAX_CHUNKS, ceil(table.rows(), ROWS_PER_CHUNK)));
        if (c != null && keyChunks > 1 && Math.abs(c) < orderedEnough(table)) {
            return physical(table, String.format(Locale.ROOT, "key %s lies out of heap order (correlation %.3f):"
                    + " key ranges would read the table about %.0fx", key, c,
                    Math.min(keyChunks, 1 + (1 - Math.abs(c)) * table.rows() / Math.max(1, table.pages()))));
        }
        String why = c == null ? "key " + key + " (no statistics of its heap order: run ANALYZE to let generate check it)"
                : keyChunks == 1 ? "key " + key + " (one chunk reads the table once)"
                : String.format(Locale.ROOT, "key %s follows the heap order (correlation %.3f)", key, c);
        if (table.keyKind() == SourceTableFacts.KeyKind.INTEGER) {
            long lower = table.minKey() == null ? 1 : table.minKey();
            long upper = table.maxKey() == null ? lower : Math.max(lower, table.maxKey());
            // Never more chunks than keys: an integer range of n keys cannot be cut into more than n ranges.
            long keys = upper - lower + 1;
            int buckets = (int) Math.max(1, Math.min(keys, keyChunks));
            return new ChunkSizing("integer", key, buckets, lower, upper, why);
        }
        return new ChunkSizing("uuid", key, keyChunks, null, null, why);
    }

    /** The least {@code |correlation|} that keeps key ranges within two reads of the table (see above). */
    private static double orderedEnough(SourceTableFacts table) {
        return table.rows() <= 0 ? 0 : 1 - (double) Math.max(1, table.pages()) / table.rows();
    }

    private static ChunkSizing physical(SourceTableFacts table, String why) {
        return new ChunkSizing("physical", null, (int) Math.max(1, Math.min(MAX_CHUNKS, ceil(table.pages(), PAGES_PER_CHUNK))),
                null, null, why);
    }

    private static long ceil(long value, long per) {
        return (Math.max(0, value) + per - 1) / per;
    }
}

package io.dpone.backfill.core.verify;

import io.dpone.backfill.core.digest.CanonicalText;
import io.dpone.backfill.core.digest.ContentDigester.RowObserver;
import io.dpone.backfill.core.digest.ContentDigester.RowView;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the first differing key and column between two streams of the same rows (the source's and the target's),
 * in bounded memory whatever their size: a first pass of each side sums every column's field hashes into buckets
 * of the key hash; the first bucket and column whose sums differ are then read again on both sides, keeping only
 * that bucket's rows (about one row in {@value #BUCKETS}), which are compared key by key. Only runs once a digest
 * comparison found a difference.
 */
public final class DifferenceLocator {
    static final int BUCKETS = 1024;

    private final List<String> columns;
    private final int[] keyColumns;

    /** @param keyColumns positions of the key columns among {@code columns}, in key order */
    public DifferenceLocator(List<String> columns, int[] keyColumns) {
        this.columns = List.copyOf(columns);
        this.keyColumns = keyColumns.clone();
    }

    /** A first pass over one side: per bucket of the key hash, the row count, the key sum and each column's sum. */
    public BucketSums sums() {
        return new BucketSums(columns.size());
    }

    /** The bucket to read again, or -1 when both sides' sums agree (the difference is gone, or hashes collided). */
    public static int firstDifferingBucket(BucketSums read, BucketSums stored) {
        for (int b = 0; b < BUCKETS; b++) {
            if (!read.sameBucket(stored, b)) {
                return b;
            }
        }
        return -1;
    }

    /** A second pass over one side: the rows of {@code bucket} only, by key hash. */
    public BucketRows rows(int bucket) {
        return new BucketRows(bucket);
    }

    /** The first key, in the read side's order, whose row differs; empty when the two bucket reads agree. */
    public Optional<ContentDifference> compare(BucketRows read, BucketRows stored) {
        for (Map.Entry<KeyHash, byte[][]> e : read.rows.entrySet()) {
            byte[][] r = e.getValue();
            byte[][] s = stored.rows.get(e.getKey());
            if (s == null) {
                return Optional.of(new ContentDifference(key(r), null, "the row", null));
            }
            for (int c = 0; c < r.length; c++) {
                if (!java.util.Arrays.equals(r[c], s[c])) {
                    return Optional.of(new ContentDifference(key(r), columns.get(c), CanonicalText.of(r[c]),
                            CanonicalText.of(s[c])));
                }
            }
        }
        for (Map.Entry<KeyHash, byte[][]> e : stored.rows.entrySet()) {
            if (!read.rows.containsKey(e.getKey())) {
                return Optional.of(new ContentDifference(key(e.getValue()), null, null, "the row"));
            }
        }
        return Optional.empty();
    }

    private String key(byte[][] row) {
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int k : keyColumns) {
            names.add(columns.get(k));
            values.add(CanonicalText.of(row[k]));
        }
        return "(" + String.join(", ", names) + ")=(" + String.join(", ", values) + ")";
    }

    private static int bucket(RowView row) {
        return (int) (row.keyLow() & (BUCKETS - 1));
    }

    private record KeyHash(long high, long low) {
    }

    /** Per bucket: rows, the key hash sum, and each column's field hash sum. */
    public static final class BucketSums implements RowObserver {
        private final int columns;
        private final long[] rows = new long[BUCKETS];
        private final long[] keys = new long[BUCKETS];
        private final long[] fields;

        BucketSums(int columns) {
            this.columns = columns;
            this.fields = new long[BUCKETS * columns];
        }

        @Override
        public void row(RowView row) {
            int b = bucket(row);
            rows[b]++;
            keys[b] += row.keyHigh();
            for (int c = 0; c < columns; c++) {
                fields[b * columns + c] += row.fieldHash(c);
            }
        }

        boolean sameBucket(BucketSums other, int b) {
            if (rows[b] != other.rows[b] || keys[b] != other.keys[b]) {
                return false;
            }
            for (int c = 0; c < columns; c++) {
                if (fields[b * columns + c] != other.fields[b * columns + c]) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The canonical fields of the rows in one bucket, by key hash, in the order they came. */
    public static final class BucketRows implements RowObserver {
        private final int bucket;
        private final Map<KeyHash, byte[][]> rows = new java.util.LinkedHashMap<>();

        BucketRows(int bucket) {
            this.bucket = bucket;
        }

        @Override
        public void row(RowView row) {
            if (bucket(row) != bucket) {
                return;
            }
            byte[][] fields = new byte[row.columns()][];
            for (int c = 0; c < fields.length; c++) {
                fields[c] = row.field(c);
            }
            rows.put(new KeyHash(row.keyHigh(), row.keyLow()), fields);
        }
    }
}

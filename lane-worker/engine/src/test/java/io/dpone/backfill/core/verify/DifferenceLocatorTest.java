package io.dpone.backfill.core.verify;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.digest.DigestTable;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gate's comparison and its locator over streams of rows fed to real digesters: equal streams in any order
 * match; one changed value is found by key and column; a row missing on one side is named; memory stays with one
 * bucket's rows.
 */
class DifferenceLocatorTest {
    private static final List<String> COLUMNS = List.of("id", "born", "note");
    private static final int[] KEY = {0};

    @Test
    void oneChangedValueIsNamedByItsKeyColumnAndBothValues() {
        Optional<ContentDifference> d = locate(i -> row(i, LocalDate.of(1, 1, 1).plusDays(i), "n" + i),
                i -> row(i, LocalDate.of(1, 1, 1).plusDays(i == 777 ? i + 1 : i), "n" + i), 5000);

        assertThat(d).hasValueSatisfying(x -> {
            assertThat(x.key()).isEqualTo("(id)=(777)");
            assertThat(x.column()).isEqualTo("born");
            assertThat(x.describe()).isEqualTo("key (id)=(777), column born: read 0003-02-17 from the source, stored as 0003-02-18");
        });
    }

    @Test
    void aRowMissingFromTheStoredSideIsNamedAsMissing() {
        Optional<ContentDifference> d = locate(i -> row(i, LocalDate.EPOCH, "x"), i -> i == 42 ? null : row(i, LocalDate.EPOCH, "x"), 1000);

        assertThat(d).hasValueSatisfying(x -> assertThat(x.describe()).isEqualTo("key (id)=(42) is in the source but not stored in the target"));
    }

    @Test
    void equalStreamsInAnyOrderFindNothing() {
        assertThat(locate(i -> row(i, LocalDate.EPOCH, "a" + i), i -> row(999 - i, LocalDate.EPOCH, "a" + (999 - i)), 1000)).isEmpty();
    }

    @Test
    void keyedPlansCompareChunkByChunkAndPhysicalPlansTheWhole() {
        ChunkDigest a = new ChunkDigest(10, 1, 2, 3, 4);
        ChunkDigest b = new ChunkDigest(10, 1, 2, 3, 5);
        DigestTable stored = new DigestTable(2);
        ContentDigester d = new ContentDigester(1, new int[] {0});
        d.integer(1);
        d.endRow(stored, 1);

        StoredContent keyed = StoredContent.compare(true, new ChunkDigest[] {ChunkDigest.EMPTY, a}, stored);
        assertThat(keyed.mismatches()).extracting(StoredContent.Mismatch::chunkId).containsExactly(1);
        assertThat(keyed.describe(5)).isEqualTo("chunk 1: 10 rows sent, 1 stored");
        assertThat(StoredContent.compare(false, new ChunkDigest[] {a, b}, stored).describe(5))
                .isEqualTo("the table: 20 rows sent, 1 stored");
        assertThat(new StoredContent.Mismatch(3, a, b).describe()).isEqualTo("chunk 3: 10 rows, same keys, different values");
    }

    /** Feeds {@code rows} rows of each side through digesters, as the gate's readers do, then locates the difference. */
    private static Optional<ContentDifference> locate(LongFunction<Object[]> read, LongFunction<Object[]> stored, int rows) {
        DifferenceLocator locator = new DifferenceLocator(COLUMNS, KEY);
        DifferenceLocator.BucketSums readSums = locator.sums();
        DifferenceLocator.BucketSums storedSums = locator.sums();
        feed(read, rows, readSums);
        feed(stored, rows, storedSums);
        int bucket = DifferenceLocator.firstDifferingBucket(readSums, storedSums);
        if (bucket < 0) {
            return Optional.empty();
        }
        DifferenceLocator.BucketRows readRows = locator.rows(bucket);
        DifferenceLocator.BucketRows storedRows = locator.rows(bucket);
        feed(read, rows, readRows);
        feed(stored, rows, storedRows);
        return locator.compare(readRows, storedRows);
    }

    private static void feed(LongFunction<Object[]> rows, int n, ContentDigester.RowObserver observer) {
        ContentDigester d = new ContentDigester(COLUMNS.size(), KEY).observe(observer);
        for (long i = 0; i < n; i++) {
            Object[] row = rows.apply(i);
            if (row == null) {
                continue;
            }
            for (Object v : row) {
                d.value(v);
            }
            d.endRow();
        }
    }

    private static Object[] row(long id, LocalDate born, String note) {
        return new Object[] {id, born, note};
    }
}

package io.dpone.backfill.postgres;

import io.dpone.backfill.core.reconcile.KeyBuckets;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A row's key as canonical text, {@code ROW(k1, k2)::text} (e.g. {@code (42)}), the same on a PostgreSQL source and
 * a PostgreSQL target whatever the key columns are named there: what reconciliation compares, digests and queues
 * (issue 38).
 */
public final class PostgresKeyText {
    private PostgresKeyText() {
    }

    /** The key of {@code alias}'s row as text; {@code alias} null for an unqualified table. */
    public static String of(List<String> keyColumns, String alias) {
        return "ROW(" + keyColumns.stream().map(c -> (alias == null ? "" : alias + ".") + PostgresIdentifiers.quote(c))
                .collect(Collectors.joining(", ")) + ")::text";
    }

    /** The 64-bit hash of the key text (PostgreSQL's own {@code hashtextextended}, several times cheaper than MD5). */
    public static String hash(List<String> keyColumns, String alias) {
        return "pg_catalog.hashtextextended(" + of(keyColumns, alias) + ", 0)";
    }

    /** The bucket of the key's hash: its low bits, {@link KeyBuckets#COUNT} buckets. */
    public static String bucket(List<String> keyColumns, String alias) {
        return "(" + hash(keyColumns, alias) + " & " + (KeyBuckets.COUNT - 1) + ")::int";
    }

    /**
     * The keys' digests per range and bucket of {@code table} (aliased {@code alias}): range number, bucket, count and
     * the exact sum of the hashes ({@code sum(bigint)} is exact: a 128-bit or numeric accumulator). The subquery is
     * kept whole ({@code OFFSET 0}) so each key is hashed once, not once for its bucket and once for the sum.
     */
    public static String digests(String qualifiedTable, List<String> keyColumns, String alias, String rangeNumber) {
        return "SELECT k.r, (k.h & " + (KeyBuckets.COUNT - 1) + ")::int AS b, count(*) AS n, sum(k.h) AS s FROM (SELECT "
                + rangeNumber + " AS r, " + hash(keyColumns, alias) + " AS h FROM " + qualifiedTable + " " + alias
                + " OFFSET 0) k WHERE k.r IS NOT NULL GROUP BY 1, 2";
    }

    /** The number of a (range, bucket) pair, as {@link io.dpone.backfill.core.reconcile.RangeBuckets} numbers them. */
    public static String pair(String rangeNumber, List<String> keyColumns, String alias) {
        return "(" + rangeNumber + " * " + KeyBuckets.COUNT + " + " + bucket(keyColumns, alias) + ")";
    }

    /**
     * {@code pair} is one of {@code buckets} (our own numbers, inlined: COPY takes no parameters), or true when
     * they are most of them and filtering would save little.
     */
    public static String inPairs(String pair, io.dpone.backfill.core.reconcile.RangeBuckets buckets, int ranges) {
        if (buckets.most(ranges)) {
            return "true";
        }
        // A semi-join on an unnested array is hashed on every server version; a long IN list is not before 14.
        return pair + " IN (SELECT pg_catalog.unnest('{" + buckets.numbers().mapToObj(String::valueOf)
                .collect(Collectors.joining(",")) + "}'::int[]))";
    }
}

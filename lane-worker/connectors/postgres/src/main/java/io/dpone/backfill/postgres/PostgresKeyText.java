package io.dpone.backfill.postgres;

import io.dpone.backfill.core.reconcile.KeyBuckets;
import io.dpone.backfill.core.reconcile.KeySetDigest;

import java.math.BigInteger;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
        return "(" + hash(keyColumns, alias) + " & " + (KeyBuckets.COUNT - 1) + ")";
    }

    /** {@code alias}'s key falls in one of {@code buckets} (our own numbers, inlined: COPY takes no parameters). */
    public static String inBuckets(List<String> keyColumns, String alias, Set<Integer> buckets) {
        return bucket(keyColumns, alias) + " IN (" + buckets.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")";
    }

    /**
     * The digest of the keys of {@code table}'s rows matching {@code predicate}: their count and the exact sum of their
     * hashes; one aggregate, half the cost of the per-bucket digests a range reads only when this differs.
     */
    public static KeySetDigest digest(PostgresJdbc jdbc, String qualifiedTable, List<String> keyColumns, String alias,
                                      String predicate) throws SQLException {
        // sum(bigint) is exact (a 128-bit or numeric accumulator, a numeric result): no per-row cast needed.
        return jdbc.one("SELECT count(*)::text AS n, coalesce(sum(" + hash(keyColumns, alias) + "), 0)::text AS s FROM "
                        + qualifiedTable + (alias == null ? "" : " " + alias) + " WHERE " + predicate,
                rs -> new KeySetDigest(Long.parseLong(rs.getString("n")), new BigInteger(rs.getString("s")))).orElseThrow();
    }

    /**
     * The keys of {@code table}'s rows matching {@code predicate} per bucket: each bucket's count and the exact sum of
     * its keys' hashes (numeric, which cannot overflow). A route to another engine needs a hash both can compute.
     */
    public static KeyBuckets buckets(PostgresJdbc jdbc, String qualifiedTable, List<String> keyColumns, String alias,
                                     String predicate) throws SQLException {
        Map<Integer, KeySetDigest> digests = new TreeMap<>();
        // Each key hashed once, then grouped by its low bits.
        for (Object[] row : jdbc.list("SELECT (h & " + (KeyBuckets.COUNT - 1) + ")::int AS b, count(*)::text AS n, sum(h)::text AS s"
                + " FROM (SELECT " + hash(keyColumns, alias) + " AS h FROM " + qualifiedTable + (alias == null ? "" : " " + alias)
                + " WHERE " + predicate + ") k GROUP BY 1", rs -> new Object[] {rs.getInt("b"), rs.getString("n"), rs.getString("s")})) {
            digests.put((Integer) row[0], new KeySetDigest(Long.parseLong((String) row[1]), new BigInteger((String) row[2])));
        }
        return KeyBuckets.of(digests);
    }
}

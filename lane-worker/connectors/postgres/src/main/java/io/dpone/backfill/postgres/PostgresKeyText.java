package io.dpone.backfill.postgres;

import io.dpone.backfill.core.reconcile.KeyBuckets;
import io.dpone.backfill.core.reconcile.RangeBuckets;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A row's key as canonical text, {@code ROW(k1, k2)::text} (e.g. {@code (42)}), the same on a PostgreSQL source and
 * a PostgreSQL target whatever the key columns are named there: what reconciliation compares, digests and queues
 * (issue 38). A key of one integer or uuid column is built as {@code '(' || k::text || ')'}, the same text at half the
 * cost: the record's output quotes only values that are empty or hold quotes, backslashes, parentheses, commas or
 * spaces, which these types' text never does. A key hashes as its text does, except a key of one uuid column, which
 * hashes its 16 bytes ({@code uuid_hash_extended}: the same function over the value's bytes instead of its 38
 * characters, a third of the digests' cost); both sides of a route hash alike, as their keys are the same.
 */
public final class PostgresKeyText {
    /** Types whose text the record output never quotes. */
    private static final Set<String> PLAIN = Set.of("smallint", "integer", "bigint", "uuid");

    private final List<String> columns;
    private final boolean plain;
    private final boolean uuid;

    private PostgresKeyText(List<String> columns, boolean plain, boolean uuid) {
        this.columns = List.copyOf(columns);
        this.plain = plain;
        this.uuid = uuid;
    }

    /** The key text of {@code qualifiedTable}'s key {@code columns}, reading whether it can take the cheaper form. */
    public static PostgresKeyText of(PostgresJdbc jdbc, String qualifiedTable, List<String> columns) throws SQLException {
        String type = "";
        if (columns.size() == 1) {
            type = jdbc.one("SELECT pg_catalog.format_type(a.atttypid, NULL) AS t FROM pg_catalog.pg_attribute a"
                    + " WHERE a.attrelid = ?::regclass AND a.attname = ? AND NOT a.attisdropped", rs -> rs.getString("t"),
                    qualifiedTable, columns.get(0)).orElse("");
        }
        return new PostgresKeyText(columns, PLAIN.contains(type), type.equals("uuid"));
    }

    /** The record form, whatever the types. */
    private static String of(List<String> keyColumns, String alias) {
        return "ROW(" + keyColumns.stream().map(c -> qualified(alias, c)).collect(Collectors.joining(", ")) + ")::text";
    }

    /** The key of {@code alias}'s row as text; {@code alias} null for an unqualified table. */
    public String text(String alias) {
        return plain ? "('(' || " + qualified(alias, columns.get(0)) + "::text || ')')" : of(columns, alias);
    }

    /** The key's 64-bit hash: PostgreSQL's own extended hash of its text (several times cheaper than MD5) or uuid. */
    public String hash(String alias) {
        return uuid ? "pg_catalog.uuid_hash_extended(" + qualified(alias, columns.get(0)) + ", 0)"
                : "pg_catalog.hashtextextended(" + text(alias) + ", 0)";
    }

    /** The number of the key's (range, bucket) pair as {@link RangeBuckets} numbers them: its bucket is its hash's low bits. */
    public String pair(String rangeNumber, String alias) {
        return "(" + rangeNumber + " * " + KeyBuckets.COUNT + " + (" + hash(alias) + " & " + (KeyBuckets.COUNT - 1) + ")::int)";
    }

    /**
     * The keys' digests per range and bucket of {@code table} (aliased {@code alias}): range number, bucket, count and
     * the exact sum of the hashes ({@code sum(bigint)} is exact: a 128-bit or numeric accumulator). The subquery is
     * kept whole ({@code OFFSET 0}) so each key is hashed once, not once for its bucket and once for the sum.
     */
    public String digests(String qualifiedTable, String alias, String rangeNumber) {
        return digests(qualifiedTable, alias, rangeNumber, null);
    }

    /**
     * The same, with a fifth column when {@code condition} (over {@code alias}) is given: how many of each bucket's
     * rows fail it, counted in the same read.
     */
    public String digests(String qualifiedTable, String alias, String rangeNumber, String condition) {
        return "SELECT k.r, (k.h & " + (KeyBuckets.COUNT - 1) + ")::int AS b, count(*) AS n, sum(k.h) AS s"
                + (condition == null ? "" : ", count(*) FILTER (WHERE NOT k.c) AS others") + " FROM (SELECT " + rangeNumber
                + " AS r, " + hash(alias) + " AS h" + (condition == null ? "" : ", " + condition + " AS c") + " FROM "
                + qualifiedTable + " " + alias + " OFFSET 0) k WHERE k.r IS NOT NULL GROUP BY 1, 2";
    }

    /**
     * {@code pair} is one of {@code buckets} (our own numbers, inlined: COPY takes no parameters), or true when
     * they are most of them and filtering would save little.
     */
    public static String inPairs(String pair, RangeBuckets buckets, int ranges) {
        if (buckets.most(ranges)) {
            return "true";
        }
        // A semi-join on an unnested array is hashed on every server version; a long IN list is not before 14.
        return pair + " IN (SELECT pg_catalog.unnest('{" + buckets.numbers().mapToObj(String::valueOf)
                .collect(Collectors.joining(",")) + "}'::int[]))";
    }

    private static String qualified(String alias, String column) {
        return (alias == null ? "" : alias + ".") + PostgresIdentifiers.quote(column);
    }
}

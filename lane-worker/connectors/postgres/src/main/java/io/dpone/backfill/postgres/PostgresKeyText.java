package io.dpone.backfill.postgres;

import io.dpone.backfill.core.reconcile.KeySetDigest;

import java.math.BigInteger;
import java.sql.SQLException;
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

    /**
     * The digest of the keys of {@code table}'s rows matching {@code predicate}: their count and the sum of the first
     * 60 bits of each key text's MD5, a numeric sum that cannot overflow.
     */
    public static KeySetDigest digest(PostgresJdbc jdbc, String qualifiedTable, List<String> keyColumns, String predicate)
            throws SQLException {
        return jdbc.one("SELECT count(*)::text AS n, coalesce(sum(('x' || substr(md5(" + of(keyColumns, null) + "), 1, 15))"
                        + "::bit(60)::bigint), 0)::text AS s FROM " + qualifiedTable + " WHERE " + predicate,
                rs -> new KeySetDigest(Long.parseLong(rs.getString("n")), new BigInteger(rs.getString("s"))))
                .orElseThrow();
    }
}

package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.core.publish.ValidationResult;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresSqlException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Exact validation of a loaded table: row count, rows with a NULL key column, surplus rows of duplicate keys (counted,
 * or ruled out by a unique index on the key that the table already has).
 */
public final class PostgresShadowValidator {
    private final Connection connection;

    PostgresShadowValidator(Connection connection) {
        this.connection = connection;
    }

    ValidationResult validate(String schema, String table, List<String> uniqueKey, long expectedRows) {
        if (uniqueKey == null || uniqueKey.isEmpty()) {
            throw new IllegalArgumentException("validation needs a non-empty unique key");
        }
        String name = PostgresIdentifiers.qualified(schema, table);
        List<String> keys = uniqueKey.stream().map(PostgresIdentifiers::quote).toList();
        String anyNull = keys.stream().map(k -> k + " IS NULL").collect(Collectors.joining(" OR "));
        String noneNull = keys.stream().map(k -> k + " IS NOT NULL").collect(Collectors.joining(" AND "));
        try {
            Relation relation = new PostgresCatalog(connection).relation(schema, table).orElseThrow(
                    () -> new IllegalStateException("cannot validate " + schema + "." + table + ": it does not exist"));
            String index = uniqueIndexOnTheKey(relation.oid(), uniqueKey);
            // One statement, so all numbers come from the same snapshot. A unique index on the key's columns (or
            // some of them) has already refused duplicates: the GROUP BY would only repeat its work.
            String duplicates = index != null ? "0" : "(SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM "
                    + name + " WHERE " + noneNull + " GROUP BY " + String.join(", ", keys)
                    + " HAVING count(*) > 1) AS duplicates)";
            // Rows and NULL keys in one scan of the shadow (two were a second full read at validation).
            String sql = "SELECT count(*), count(*) FILTER (WHERE " + anyNull + "), " + duplicates + " FROM " + name;
            try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return new ValidationResult(expectedRows, rs.getLong(1), rs.getLong(2), rs.getLong(3), index);
            }
        } catch (SQLException e) {
            throw new PostgresSqlException("validate " + schema + "." + table, e);
        }
    }

    /**
     * A valid unique index of the table whose key columns are all columns of {@code uniqueKey}, with the columns'
     * own collations and the types' default operator classes (so its equality is the one GROUP BY would use), and
     * neither a predicate nor an expression; null when there is none. Uniqueness on some of the key's columns
     * implies it on all of them; rows with a NULL key column are counted apart.
     */
    private String uniqueIndexOnTheKey(long relation, List<String> uniqueKey) throws SQLException {
        String sql = "SELECT c.relname FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid"
                + " WHERE i.indrelid = ? AND i.indisunique AND i.indisvalid AND i.indisready AND i.indpred IS NULL"
                + " AND i.indexprs IS NULL AND NOT EXISTS (SELECT 1 FROM generate_series(0, i.indnkeyatts - 1) AS k(n)"
                + " JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[k.n]"
                + " JOIN pg_catalog.pg_opclass o ON o.oid = i.indclass[k.n]"
                + " WHERE NOT (a.attname = ANY (?)) OR i.indcollation[k.n] <> a.attcollation OR NOT o.opcdefault)"
                + " ORDER BY c.relname LIMIT 1";
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setLong(1, relation);
            ps.setArray(2, connection.createArrayOf("text", uniqueKey.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}

package io.dpone.backfill.target.postgres.publish;

import io.dpone.backfill.core.target.ValidationResult;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresSqlException;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;

/** Exact validation of a loaded table: row count, rows with a NULL key column, surplus rows of duplicate keys. */
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
        // One statement, so all three numbers come from the same snapshot.
        String sql = "SELECT (SELECT count(*) FROM " + name + "),"
                + " (SELECT count(*) FROM " + name + " WHERE " + anyNull + "),"
                + " (SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM " + name + " WHERE " + noneNull
                + " GROUP BY " + String.join(", ", keys) + " HAVING count(*) > 1) AS duplicates)";
        try {
            if (new PostgresCatalog(connection).relation(schema, table).isEmpty()) {
                throw new IllegalStateException("cannot validate " + schema + "." + table + ": it does not exist");
            }
            try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return new ValidationResult(expectedRows, rs.getLong(1), rs.getLong(2), rs.getLong(3));
            }
        } catch (SQLException e) {
            throw new PostgresSqlException("validate " + schema + "." + table, e);
        }
    }
}

package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.publish.ValidationResult;
import io.dpone.backfill.targets.mssql.MssqlFailures;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Exact validation of a loaded table: COUNT_BIG(*), rows with a NULL key column, and surplus rows of duplicate keys
 * as the target compares them: GROUP BY uses each key column's collation, so keys distinct in PostgreSQL that a
 * case- or accent-insensitive collation (or trailing-space padding) makes equal count as duplicates, exactly as a
 * unique index built afterwards would refuse them.
 */
final class MssqlShadowValidator {
    private final Connection connection;

    MssqlShadowValidator(Connection connection) {
        this.connection = connection;
    }

    ValidationResult validate(String schema, String table, List<String> uniqueKey, long expectedRows) {
        if (uniqueKey == null || uniqueKey.isEmpty()) {
            throw new IllegalArgumentException("validation needs a non-empty unique key");
        }
        try {
            if (!MssqlTables.isTable(connection, schema, table)) {
                throw new IllegalStateException("cannot validate " + schema + "." + table + ": it does not exist");
            }
            try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql(schema, table, uniqueKey))) {
                rs.next();
                return new ValidationResult(expectedRows, rs.getLong(1), rs.getLong(2), rs.getLong(3));
            }
        } catch (SQLException e) {
            throw MssqlFailures.of("validate " + schema + "." + table + ": " + e.getMessage(), e);
        }
    }

    static String sql(String schema, String table, List<String> uniqueKey) {
        String name = MssqlObjectNames.twoPart(schema, table);
        List<String> keys = uniqueKey.stream().map(MssqlIdentifiers::quote).toList();
        String anyNull = keys.stream().map(k -> k + " IS NULL").collect(Collectors.joining(" OR "));
        String noneNull = keys.stream().map(k -> k + " IS NOT NULL").collect(Collectors.joining(" AND "));
        return "SELECT (SELECT COUNT_BIG(*) FROM " + name + ") AS row_count,"
                + " (SELECT COUNT_BIG(*) FROM " + name + " WHERE " + anyNull + ") AS null_keys,"
                + " (SELECT COALESCE(SUM(d.n - 1), 0) FROM (SELECT COUNT_BIG(*) AS n FROM " + name + " WHERE " + noneNull
                + " GROUP BY " + String.join(", ", keys) + " HAVING COUNT_BIG(*) > 1) AS d) AS duplicate_keys";
    }
}

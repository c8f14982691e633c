package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.core.campaign.IdentifierComparison;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * How the connection's current database compares identifiers: under its collation (sql-docs
 * docs/t-sql/functions/databasepropertyex-transact-sql.md, property {@code Collation}: "Default collation name for
 * the database"). Object names in a database follow the database's default collation.
 */
public final class MssqlIdentifierNames {
    static final String COLLATION = "SELECT CONVERT(nvarchar(128), DATABASEPROPERTYEX(DB_NAME(), 'Collation'))";

    private MssqlIdentifierNames() {
    }

    public static IdentifierComparison of(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(COLLATION)) {
            return IdentifierComparison.ofCollation(rs.next() ? rs.getString(1) : null);
        }
    }
}

package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Moves the shadow's identity past every value the live table ever issued and every value loaded into the shadow,
 * never back, with {@code DBCC CHECKIDENT (table, RESEED, n)}. Its documented semantics (sql-docs
 * docs/t-sql/database-console-commands/dbcc-checkident-transact-sql.md, Remarks): when rows are present, or were
 * removed by DELETE, the next row gets n + increment; when no rows have been inserted since the table was created,
 * the first row gets n itself. A shadow that holds no rows (an empty source) is reseeded one increment further, so its
 * first row never reuses the live table's last value; should rows have been inserted and rolled back, that costs a
 * gap of one value, never a duplicate. Explicitly inserted values already move the current identity forward; the
 * live table's {@code IDENT_CURRENT} may be beyond its rows (values issued, then deleted or rolled back), so it is
 * taken into account too. For a negative increment "past" means below.
 */
final class MssqlSwapIdentity {
    static final String RESEED_FAILED = "DBCC CHECKIDENT could not reseed ";

    private final Connection connection;

    MssqlSwapIdentity(Connection connection) {
        this.connection = connection;
    }

    void carry(String schema, String liveTable, String shadowTable, List<MssqlCatalogColumn> shadowColumns) throws SQLException {
        MssqlCatalogColumn identity = shadowColumns.stream().filter(MssqlCatalogColumn::identity).findFirst().orElse(null);
        if (identity == null) {
            return;
        }
        String live = MssqlObjectNames.twoPart(schema, liveTable);
        String shadow = MssqlObjectNames.twoPart(schema, shadowTable);
        boolean ascending = new BigDecimal(identity.identityIncrement()).signum() > 0;
        String sql = "SELECT " + liveIssued(live) + ","
                + " CONVERT(decimal(38,0), IDENT_CURRENT(N'" + MssqlIdentifiers.inLiteral(shadow) + "')),"
                + " CONVERT(decimal(38,0), " + (ascending ? "MAX(" : "MIN(") + MssqlIdentifiers.quote(identity.name())
                + ")) FROM " + shadow;
        BigDecimal liveCurrent;
        BigDecimal shadowCurrent;
        BigDecimal loaded;
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            liveCurrent = rs.getBigDecimal(1);
            shadowCurrent = rs.getBigDecimal(2);
            loaded = rs.getBigDecimal(3);
        }
        BigDecimal reseed = reseedTo(new BigDecimal(identity.identityIncrement()), liveCurrent, shadowCurrent, loaded);
        if (reseed != null) {
            try {
                MssqlShadowTransaction.execute(connection, reseedStatement(shadow, reseed));
            } catch (SQLException e) {
                throw new SQLException(RESEED_FAILED + shadow + " to " + reseed.toPlainString() + ": " + e.getMessage(),
                        e.getSQLState(), e.getErrorCode(), e);
            }
        }
    }

    /**
     * The new_reseed_value for the shadow, or null when its current identity is already past every issued and loaded
     * value. {@code loaded} is the shadow's MAX (or MIN, descending) identity, null when it holds no rows.
     */
    static BigDecimal reseedTo(BigDecimal increment, BigDecimal liveCurrent, BigDecimal shadowCurrent, BigDecimal loaded) {
        boolean ascending = increment.signum() > 0;
        BigDecimal target = further(ascending, liveCurrent, loaded);
        if (target == null) {
            return null;
        }
        if (loaded == null) {
            // No rows: the next row may get the current value itself (none inserted since creation), so it must
            // already be strictly past the target; else reseed one increment past it, as DBCC CHECKIDENT gives the
            // first row of such a table new_reseed_value itself.
            return shadowCurrent != null && beyond(ascending, shadowCurrent, target) ? null : target.add(increment);
        }
        // Rows present: the next row gets current + increment, past the target unless current is short of it.
        return shadowCurrent != null && !beyond(ascending, target, shadowCurrent) ? null : target;
    }

    /**
     * The live table's current identity when it ever issued one, else NULL: {@code sys.identity_columns.last_value}
     * is the "last value generated for this identity column" (sql-docs sys-identity-columns-transact-sql.md), NULL
     * while none was, when IDENT_CURRENT would report the seed as if it had been issued. Asked with EXISTS, not as a
     * scalar subquery: a table has at most one identity column, so on SQL Server both read the same, and EXISTS
     * cannot fail on an engine whose catalog view answers more than one row for the table.
     */
    static String liveIssued(String liveTwoPart) {
        String literal = MssqlIdentifiers.inLiteral(liveTwoPart);
        return "CONVERT(decimal(38,0), CASE WHEN EXISTS (SELECT 1 FROM sys.identity_columns AS ic"
                + " WHERE ic.object_id = OBJECT_ID(N'" + literal + "') AND ic.last_value IS NOT NULL) THEN IDENT_CURRENT(N'"
                + literal + "') END)";
    }

    /** {@code a} strictly past {@code b} in the identity's direction. */
    private static boolean beyond(boolean ascending, BigDecimal a, BigDecimal b) {
        return ascending ? a.compareTo(b) > 0 : a.compareTo(b) < 0;
    }

    static String reseedStatement(String shadowTwoPart, BigDecimal value) {
        return "DBCC CHECKIDENT (N'" + MssqlIdentifiers.inLiteral(shadowTwoPart) + "', RESEED, " + value.toPlainString()
                + ") WITH NO_INFOMSGS";
    }

    private static BigDecimal further(boolean ascending, BigDecimal a, BigDecimal b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return ascending ? a.max(b) : a.min(b);
    }
}

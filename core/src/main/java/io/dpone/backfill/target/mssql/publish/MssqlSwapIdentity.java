package io.dpone.backfill.target.mssql.publish;

import io.dpone.backfill.target.mssql.MssqlIdentifiers;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Moves the shadow's identity past every value the live table ever issued and every value loaded into the shadow,
 * never back: {@code DBCC CHECKIDENT (table, RESEED, n)} as SQL Server documents it (the next row of a table that
 * has rows gets n + increment). Explicitly inserted values already move the current identity forward; the live
 * table's {@code IDENT_CURRENT} may be beyond its rows (values issued, then deleted or rolled back), so it is taken
 * into account too. For a negative increment "past" means below.
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
        String sql = "SELECT CONVERT(decimal(38,0), IDENT_CURRENT(N'" + MssqlIdentifiers.inLiteral(live) + "')),"
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
        BigDecimal target = further(ascending, liveCurrent, loaded);
        if (target != null && (shadowCurrent == null || further(ascending, shadowCurrent, target).equals(target)
                && !target.equals(shadowCurrent))) {
            try {
                MssqlShadowTransaction.execute(connection, "DBCC CHECKIDENT (N'" + MssqlIdentifiers.inLiteral(shadow)
                        + "', RESEED, " + target.toPlainString() + ") WITH NO_INFOMSGS");
            } catch (SQLException e) {
                throw new SQLException(RESEED_FAILED + shadow + " to " + target.toPlainString() + ": " + e.getMessage(),
                        e.getSQLState(), e.getErrorCode(), e);
            }
        }
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

package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A table's content fingerprint on SQL Server: COUNT_BIG(*) and the sum, as decimal(38,0), of the first 8 bytes of
 * {@code HASHBYTES('SHA2_256', canonical row text)} read as a bigint. Why this form:
 * <ul>
 * <li>a sum does not depend on row order, so no sort of the whole table is needed;</li>
 * <li>SHA-256 changes unpredictably with any change of the text, and a 64-bit slice keeps the chance that a
 * changed row leaves the sum unchanged near 2^-64;</li>
 * <li>decimal(38,0) holds any sum of up to 2^63 rows of values below 2^63 in magnitude (below 2^126 &lt; 10^38), so
 * it never overflows, where a bigint SUM would.</li>
 * </ul>
 * The row text concatenates every column (computed ones too) in column order as {@code <length>:<value>}, or
 * {@code -} for NULL: the length prefix keeps ('ab','c') and ('a','bc') apart and NULL apart from ''. Each value is
 * converted with a style that pins its form (float 3 = 17 digits, money 2, date/time 121 = full precision, binary
 * 1 = hex), never the session's language or date format. A table of more than 253 columns gets nested CONCAT calls
 * ({@link MssqlConcat}: CONCAT takes at most 254 arguments); the text, and so the hash, is the same.
 */
final class MssqlTableFingerprint {
    private MssqlTableFingerprint() {
    }

    static TableFingerprint of(Connection connection, String schema, String table) throws SQLException {
        List<MssqlCatalogColumn> columns = new MssqlCatalogColumns(connection).of(schema, table);
        if (columns.isEmpty()) {
            throw new IllegalStateException("cannot fingerprint " + schema + "." + table + ": it does not exist");
        }
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql(schema, table, columns))) {
            rs.next();
            return new TableFingerprint(rs.getLong(1), rs.getBigDecimal(2).toPlainString());
        }
    }

    static String sql(String schema, String table, List<MssqlCatalogColumn> columns) {
        String row = MssqlConcat.of(columns.stream().map(MssqlTableFingerprint::part).toList());
        return "SELECT COUNT_BIG(*) AS row_count, COALESCE(SUM(CAST(CONVERT(bigint, SUBSTRING(HASHBYTES('SHA2_256',"
                + " " + row + "), 1, 8)) AS decimal(38,0))), 0) AS content_hash FROM "
                + MssqlObjectNames.twoPart(schema, table);
    }

    /** One column's canonical text: {@code -} for NULL, else its length in bytes, ':', and the value. */
    static String part(MssqlCatalogColumn column) {
        String value = text(column);
        return "CASE WHEN " + MssqlIdentifiers.quote(column.name()) + " IS NULL THEN N'-' ELSE CONCAT(DATALENGTH("
                + value + "), N':', " + value + ") END";
    }

    private static String text(MssqlCatalogColumn column) {
        String name = MssqlIdentifiers.quote(column.name());
        String type = column.typeName().toLowerCase(java.util.Locale.ROOT);
        String source = switch (type) {
            case "image", "geometry", "geography", "hierarchyid" -> "CONVERT(varbinary(max), " + name + ")";
            // A rowversion is binary(8) (Microsoft Learn, "rowversion (Transact-SQL)"); the binary styles are documented for binary types.
            case "timestamp", "rowversion" -> "CONVERT(binary(8), " + name + ")";
            default -> name;
        };
        int style = switch (type) {
            case "geometry", "geography", "hierarchyid" -> 1;
            default -> MssqlTypes.conversionStyle(type);
        };
        return "CONVERT(nvarchar(max), " + source + (style < 0 ? "" : ", " + style) + ")";
    }
}

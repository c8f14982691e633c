package io.dpone.backfill.targets.mssql.publish;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * How the lanes' concurrent bulk loads into one table lock it, decided by the table's shape (ADR 0032). Without a table
 * lock, a bulk load into a heap takes row locks, and past about 5,000 of them SQL Server escalates to an exclusive
 * table lock that makes the other lanes wait until they time out (1222). With TABLOCK, a heap without indexes gets a
 * bulk update (BU) lock that "allow[s] multiple threads to bulk load data concurrently into the same table" (sql-docs,
 * trace flag 715 and the locking guide), so a campaign's heap shadow is loaded with TABLOCK. A clustered columnstore
 * needs no table lock ("each bulk import thread will load data exclusively into a separate rowgroup"), and TABLOCK
 * there "will force an exclusive lock on the table" (docs/relational-databases/indexes/
 * columnstore-indexes-data-loading-guidance.md), so it is loaded without, its escalation turned off on the shadow
 * ({@link MssqlShadowTuning}). Anything else (the live table in direct mode, a b-tree) keeps row locks: a BU or X
 * table lock there would shut out the table's other users.
 */
public enum MssqlLoadShape {
    /** A campaign shadow that is a heap without indexes: TABLOCK, BU locks shared by the lanes. */
    HEAP_SHADOW(true),
    /** A campaign shadow with its clustered columnstore: rowgroup locks, no TABLOCK. */
    COLUMNSTORE_SHADOW(false),
    /** Not a campaign shadow, or one with b-tree indexes: row locks, no TABLOCK. */
    OTHER(false);

    /** ? x 3 = the table's two-part name. */
    static final String SQL = "SELECT CASE WHEN EXISTS (SELECT 1 FROM sys.extended_properties AS ep WHERE ep.class = 1"
            + " AND ep.major_id = OBJECT_ID(?, N'U') AND ep.minor_id = 0 AND ep.name = N'" + MssqlShadowStamp.PROPERTY
            + "' AND CONVERT(nvarchar(4000), ep.value) LIKE N'" + MssqlShadowStamp.shadow("").replace("_", "[_]")
            + "%') THEN 1 ELSE 0 END AS shadow,"
            + " (SELECT COUNT(*) FROM sys.indexes AS i WHERE i.object_id = OBJECT_ID(?, N'U') AND i.index_id > 0) AS indexes,"
            + " CASE WHEN EXISTS (SELECT 1 FROM sys.indexes AS i WHERE i.object_id = OBJECT_ID(?, N'U') AND i.type = 5)"
            + " THEN 1 ELSE 0 END AS clustered_columnstore";

    private final boolean tableLock;

    MssqlLoadShape(boolean tableLock) {
        this.tableLock = tableLock;
    }

    /** Whether the bulk copy asks for a table lock (SQLServerBulkCopyOptions.setTableLock). */
    public boolean tableLock() {
        return tableLock;
    }

    /**
     * @param shadow               the table carries this campaign adapter's shadow stamp
     * @param indexes              its rows in sys.indexes other than the heap's (index_id > 0)
     * @param clusteredColumnstore one of them is a clustered columnstore (type 5)
     */
    static MssqlLoadShape of(boolean shadow, int indexes, boolean clusteredColumnstore) {
        if (!shadow) {
            return OTHER;
        }
        if (indexes == 0) {
            return HEAP_SHADOW;
        }
        return clusteredColumnstore && indexes == 1 ? COLUMNSTORE_SHADOW : OTHER;
    }

    /** The shape of {@code twoPartName} (quoted schema.table) as the catalog shows it now. */
    public static MssqlLoadShape read(Connection connection, String twoPartName) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(SQL)) {
            for (int i = 1; i <= 3; i++) {
                ps.setString(i, twoPartName);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return of(rs.getInt("shadow") == 1, rs.getInt("indexes"), rs.getInt("clustered_columnstore") == 1);
            }
        }
    }
}

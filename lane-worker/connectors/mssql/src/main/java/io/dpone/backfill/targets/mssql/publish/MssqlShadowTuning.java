package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;

/**
 * The table settings that differ between loading a shadow and publishing it (ADR 0032).
 * <ul>
 * <li>While loading, a columnstore shadow has lock escalation off: the lanes' bulk loads into their own rowgroups
 * still take page and extent locks for delta rowgroups (docs/relational-databases/indexes/
 * columnstore-indexes-data-loading-guidance.md, "Locking Optimization"), and an escalation to a table lock would
 * make the other lanes wait until they time out.</li>
 * <li>Before the swap, every delta rowgroup the chunk tails left (each bulk load under 102,400 rows lands in one) is
 * compressed, outside any explicit transaction: {@code ALTER INDEX ... REORGANIZE WITH (COMPRESS_ALL_ROW_GROUPS = ON)} "forces all rowgroups into the
 * columnstore, regardless of size and state" (docs/t-sql/statements/alter-index-transact-sql.md).</li>
 * <li>Before the swap, the shadow takes the live table's LOCK_ESCALATION (sys.tables.lock_escalation_desc), which
 * CREATE TABLE does not carry.</li>
 * </ul>
 */
final class MssqlShadowTuning {
    private static final Set<String> ESCALATIONS = Set.of("TABLE", "AUTO", "DISABLE");
    private static final String ESCALATION = "SELECT lock_escalation_desc FROM sys.tables WHERE object_id = OBJECT_ID(?, N'U')";
    private static final String COLUMNSTORE = "SELECT name FROM sys.indexes WHERE object_id = OBJECT_ID(?, N'U') AND type = 5";

    private MssqlShadowTuning() {
    }

    static String lockEscalation(String schema, String table, String setting) {
        if (setting == null || !ESCALATIONS.contains(setting)) {
            throw new IllegalStateException("unexpected LOCK_ESCALATION '" + setting + "' on " + schema + "." + table);
        }
        return "ALTER TABLE " + MssqlObjectNames.twoPart(schema, table) + " SET (LOCK_ESCALATION = " + setting + ")";
    }

    static String compressAllRowGroups(String schema, String table, String columnstoreIndex) {
        return "ALTER INDEX " + MssqlIdentifiers.quote(columnstoreIndex) + " ON " + MssqlObjectNames.twoPart(schema, table)
                + " REORGANIZE WITH (COMPRESS_ALL_ROW_GROUPS = ON)";
    }

    /** Right after the shadow's clustered columnstore is created, before any lane loads it. */
    static void forLoading(Connection c, String schema, String shadowTable) throws SQLException {
        escalate(c, schema, shadowTable, "DISABLE");
    }

    /** The shadow's clustered columnstore index, if it has one. */
    static Optional<String> columnstore(Connection c, String schema, String shadowTable) throws SQLException {
        return one(c, COLUMNSTORE, MssqlObjectNames.twoPart(schema, shadowTable));
    }

    /**
     * Compresses every rowgroup of {@code columnstoreIndex}, in auto-commit: REORGANIZE works in short internal
     * transactions, and wrapping it in ours would hold its locks (and the target lock) until the last rowgroup.
     */
    static void compress(Connection c, String schema, String shadowTable, String columnstoreIndex) throws SQLException {
        MssqlShadowTransaction.execute(c, compressAllRowGroups(schema, shadowTable, columnstoreIndex));
    }

    /** After the deferred indexes, before the swap: the live table's escalation. */
    static void forPublication(Connection c, String schema, String liveTable, String shadowTable) throws SQLException {
        Optional<String> live = one(c, ESCALATION, MssqlObjectNames.twoPart(schema, liveTable));
        if (live.isPresent()) {
            escalate(c, schema, shadowTable, live.get());
        }
    }

    /**
     * Sets the shadow's escalation only where it differs: an ALTER that sets what is already set changes nothing on
     * SQL Server, and leaving it out keeps the swap runnable on T-SQL engines that do not take the statement.
     */
    private static void escalate(Connection c, String schema, String shadowTable, String setting) throws SQLException {
        Optional<String> current = one(c, ESCALATION, MssqlObjectNames.twoPart(schema, shadowTable));
        if (!current.equals(Optional.of(setting))) {
            MssqlShadowTransaction.execute(c, lockEscalation(schema, shadowTable, setting));
        }
    }

    private static Optional<String> one(Connection c, String sql, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        }
    }
}

package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.publish.ReferencedKeysMissingException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts the rows a foreign key would find no parent for before the key is added, and blocks with their count and
 * a sample. Counted first because every publisher transaction runs with {@code XACT_ABORT ON}, where a failed check
 * (547) dooms the transaction before its rows could be named.
 */
final class MssqlForeignKeyOrphans {
    private MssqlForeignKeyOrphans() {
    }

    /**
     * @param referencing the table whose rows the key checks (two-part, quoted)
     * @param referenced  the table they must find a parent in (two-part, quoted)
     * @param shownAs     how the block names the key, as {@code name on schema.table}
     */
    static void require(Connection c, MssqlForeignKey key, String referencing, String referenced, String shownAs,
                        String shownTable) throws SQLException {
        long count;
        try (PreparedStatement ps = c.prepareStatement(key.orphans(referencing, referenced, false));
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            count = rs.getLong(1);
        }
        if (count == 0) {
            return;
        }
        List<String> sample = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(key.orphans(referencing, referenced, true));
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= key.columns().size(); i++) {
                    values.add(rs.getString(i));
                }
                sample.add("(" + String.join(", ", key.columns()) + ")=(" + String.join(", ", values) + ")");
            }
        }
        throw new ReferencedKeysMissingException(shownAs, shownTable, count, sample);
    }
}

package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.core.publish.ReferencedKeysMissingException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates one foreign key and, when rows do not hold, says which: how many rows reference a key the referenced
 * table lacks and a few of their values (issue 27), instead of the server's first violation alone. The validation
 * runs under a savepoint so the counting can follow it in the same transaction.
 */
final class PostgresForeignKeyOrphans {
    private static final int SAMPLE = 5;

    /** The key's two sides as quoted, schema-qualified names and quoted column lists. */
    private static final String SIDES = "SELECT " + PostgresForeignKeySql.REFERENCING + ", " + PostgresForeignKeySql.REFERENCED
            + ", " + PostgresForeignKeySql.columns(false, true) + ", " + PostgresForeignKeySql.columns(true, true)
            + PostgresForeignKeySql.KEYS + " AND k.conrelid = ?::regclass AND k.conname = ?";

    private PostgresForeignKeyOrphans() {
    }

    /**
     * {@code ALTER TABLE table VALIDATE CONSTRAINT name}; on a violation, {@link ReferencedKeysMissingException} with
     * the count and sample, the transaction still usable up to the savepoint.
     *
     * @param table quoted, schema-qualified
     * @param shownAs how the message names the key (e.g. its name on the live table)
     */
    static void validate(Connection c, String table, String name, String shownAs) throws SQLException {
        Savepoint before = c.setSavepoint();
        try {
            PostgresShadowSql.execute(c, "ALTER TABLE " + table + " VALIDATE CONSTRAINT "
                    + io.dpone.backfill.postgres.PostgresIdentifiers.quote(name));
            c.releaseSavepoint(before);
        } catch (SQLException e) {
            if (!"23503".equals(e.getSQLState())) {
                throw e;
            }
            c.rollback(before);
            throw describe(c, table, name, shownAs);
        }
    }

    private static ReferencedKeysMissingException describe(Connection c, String table, String name, String shownAs)
            throws SQLException {
        String referencing;
        String referenced;
        String[] columns;
        String[] referencedColumns;
        try (PreparedStatement ps = c.prepareStatement(SIDES)) {
            ps.setString(1, table);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("foreign key " + name + " on " + table + " vanished while it was validated");
                }
                referencing = rs.getString(1);
                referenced = rs.getString(2);
                columns = (String[]) rs.getArray(3).getArray();
                referencedColumns = (String[]) rs.getArray(4).getArray();
            }
        }
        StringBuilder present = new StringBuilder();
        StringBuilder match = new StringBuilder();
        for (int i = 0; i < columns.length; i++) {
            // MATCH SIMPLE (the default): a row with any NULL in the key is not checked.
            present.append(i == 0 ? "" : " AND ").append("r.").append(columns[i]).append(" IS NOT NULL");
            match.append(i == 0 ? "" : " AND ").append("p.").append(referencedColumns[i]).append(" = r.").append(columns[i]);
        }
        String orphans = " FROM " + referencing + " r WHERE " + present + " AND NOT EXISTS (SELECT 1 FROM " + referenced
                + " p WHERE " + match + ")";
        long count;
        List<String> sample = new ArrayList<>();
        String columnList = String.join(", ", columns);
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT count(*)" + orphans)) {
                rs.next();
                count = rs.getLong(1);
            }
            try (ResultSet rs = s.executeQuery("SELECT DISTINCT pg_catalog.concat_ws(', ', r."
                    + String.join("::text, r.", columns) + "::text)" + orphans + " ORDER BY 1 LIMIT " + SAMPLE)) {
                while (rs.next()) {
                    sample.add("(" + columnList + ")=(" + rs.getString(1) + ")");
                }
            }
        }
        return new ReferencedKeysMissingException(shownAs + " (" + columnList + ") references " + referenced,
                referencing, count, sample);
    }
}

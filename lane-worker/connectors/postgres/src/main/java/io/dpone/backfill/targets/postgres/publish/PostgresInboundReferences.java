package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Foreign keys of other tables that reference the table a swap moves out (a constraint binds to the referenced
 * table's oid, so after the renames it would check against the backup). The swap re-creates each one, under its own
 * name and with its own actions, referencing the table that moves in, inside the swap's transaction (issue 27):
 * validated at once when the original was, so the published table is never referenced by a key that does not hold.
 * When rows of a referencing table point at keys the incoming table lacks, the swap stops before any change with
 * their count and a sample. Needs {@code search_path = pg_catalog} (the swap pins it): definitions then print every
 * table schema-qualified.
 */
final class PostgresInboundReferences {
    /** One inbound key, with the head of its definition up to the referenced table's column list. */
    record InboundReference(String name, String table, String columns, String definition,
                            String definitionHead, boolean validated, String comment, String schemaName, String tableName) {
        String describe() {
            return name + " on " + table;
        }
    }

    // A partition's clone of a partitioned table's key (conparentid set) goes with its parent's.
    private static final String INBOUND = "SELECT k.conname, " + PostgresForeignKeySql.REFERENCING
            + ", pg_catalog.array_to_string(" + PostgresForeignKeySql.columns(false, true) + ", ', ')"
            + ", pg_catalog.pg_get_constraintdef(k.oid), " + PostgresForeignKeySql.REFERENCED
            + ", k.convalidated, pg_catalog.obj_description(k.oid, 'pg_constraint'), pg_catalog.obj_description(t.oid, 'pg_class')"
            + ", n.nspname, t.relname"
            + PostgresForeignKeySql.KEYS + " AND k.confrelid = ?::oid AND k.conrelid <> k.confrelid AND k.conparentid = 0"
            + " ORDER BY 2, 1";

    private final Connection c;

    PostgresInboundReferences(Connection c) {
        this.c = c;
    }

    /** Every foreign key of another table referencing {@code tableOid}, by table then name. */
    List<InboundReference> of(long tableOid) throws SQLException {
        List<InboundReference> found = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(INBOUND)) {
            ps.setLong(1, tableOid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // A backup (of an earlier campaign) keeps its keys to the table it was published beside: it is
                    // there for a rollback, and its old rows are not checked against a new table.
                    if (PostgresShadowStamp.isBackup(rs.getString(8))) {
                        continue;
                    }
                    String columns = rs.getString(3);
                    found.add(new InboundReference(rs.getString(1), rs.getString(2), columns, rs.getString(4),
                            "FOREIGN KEY (" + columns + ") REFERENCES " + rs.getString(5) + "(", rs.getBoolean(6),
                            rs.getString(7), rs.getString(9), rs.getString(10)));
                }
            }
        }
        return found;
    }

    /**
     * Re-creates each of {@code references} against {@code incoming} (schema-qualified, quoted): dropped, added
     * NOT VALID and, where the original was validated, validated (one the user left unvalidated stays so), so every existing row is checked against the
     * incoming table before the swap commits. The first that does not hold stops the swap with its orphans.
     */
    void repoint(List<InboundReference> references, String incoming) throws SQLException {
        for (InboundReference reference : references) {
            if (!reference.definition().startsWith(reference.definitionHead())) {
                throw new IllegalStateException("cannot re-point foreign key " + reference.describe() + " safely: its"
                        + " catalog definition '" + reference.definition() + "' does not start with '"
                        + reference.definitionHead() + "'; nothing was changed");
            }
            String rest = reference.definition().substring(reference.definitionHead().length());
            String name = PostgresIdentifiers.quote(reference.name());
            PostgresShadowSql.execute(c, "ALTER TABLE " + reference.table() + " DROP CONSTRAINT " + name);
            PostgresShadowSql.execute(c, "ALTER TABLE " + reference.table() + " ADD CONSTRAINT " + name
                    + " FOREIGN KEY (" + reference.columns() + ") REFERENCES " + incoming + "(" + rest
                    // Without NOT VALID, ADD CONSTRAINT would check the rows of a key the user left unvalidated.
                    + " NOT VALID");
            if (reference.comment() != null) {
                PostgresShadowSql.comment(c, "CONSTRAINT " + name + " ON " + reference.table(), reference.comment());
            }
            if (reference.validated()) {
                PostgresForeignKeyOrphans.validate(c, reference.table(), reference.name(), "foreign key " + reference.describe());
            }
        }
    }
}

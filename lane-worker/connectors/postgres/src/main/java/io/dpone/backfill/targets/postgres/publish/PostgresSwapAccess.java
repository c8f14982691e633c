package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Gives the table about to become live the owner and the privileges of the table it replaces; a rename keeps
 * both with the old table, so without this the users of the live name would lose access at the swap. Table
 * privileges are copied from the effective ACL ({@code acldefault} when none was ever granted), so the result is
 * the same set of (grantee, privilege, grant option); column privileges are copied too.
 */
public final class PostgresSwapAccess {
    // Privilege keywords come from aclexplode and are concatenated into GRANT: only known keywords pass.
    private static final Set<String> PRIVILEGES =
            Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER", "MAINTAIN");

    /** One ACL entry; {@code grantee} null means PUBLIC, {@code column} null means the whole table. */
    record Grant(String grantee, String privilege, boolean grantable, String column) {
    }

    private static final String TABLE_GRANTS = """
            SELECT CASE WHEN e.grantee = 0 THEN NULL ELSE pg_catalog.pg_get_userbyid(e.grantee) END,
                   e.privilege_type, e.is_grantable, NULL::text
              FROM pg_catalog.pg_class c,
                   LATERAL pg_catalog.aclexplode(COALESCE(c.relacl, pg_catalog.acldefault('r', c.relowner))) e
             WHERE c.oid = ?::oid
            UNION ALL
            SELECT CASE WHEN e.grantee = 0 THEN NULL ELSE pg_catalog.pg_get_userbyid(e.grantee) END,
                   e.privilege_type, e.is_grantable, a.attname::text
              FROM pg_catalog.pg_attribute a, LATERAL pg_catalog.aclexplode(a.attacl) e
             WHERE a.attrelid = ?::oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attacl IS NOT NULL""";

    private final Connection connection;

    PostgresSwapAccess(Connection connection) {
        this.connection = connection;
    }

    /** Makes {@code to} owned by {@code from}'s owner and grants exactly what {@code from} grants. */
    void copy(Relation from, Relation to) throws SQLException {
        String target = PostgresIdentifiers.qualified(to.schema(), to.name());
        if (from.ownerOid() != to.ownerOid()) {
            PostgresShadowSql.execute(connection, "ALTER TABLE " + target + " OWNER TO " + PostgresIdentifiers.quote(from.owner()));
        }
        Set<String> revoke = new LinkedHashSet<>();
        for (Grant g : grants(to.oid())) {
            revoke.add(g.grantee() == null ? "PUBLIC" : PostgresIdentifiers.quote(g.grantee()));
        }
        for (String grantee : revoke) {
            // A table-level REVOKE also revokes the same privileges from every column.
            PostgresShadowSql.execute(connection, "REVOKE ALL ON TABLE " + target + " FROM " + grantee + " CASCADE");
        }
        for (Grant g : grants(from.oid())) {
            PostgresShadowSql.execute(connection, grantStatement(g, target));
        }
    }

    List<Grant> grants(long tableOid) throws SQLException {
        List<Grant> grants = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(TABLE_GRANTS)) {
            ps.setLong(1, tableOid);
            ps.setLong(2, tableOid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    grants.add(new Grant(rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getString(4)));
                }
            }
        }
        return grants;
    }

    private static String grantStatement(Grant g, String target) {
        if (!PRIVILEGES.contains(g.privilege())) {
            throw new IllegalStateException("unexpected privilege '" + g.privilege() + "' in the live table's ACL");
        }
        String column = g.column() == null ? "" : " (" + PostgresIdentifiers.quote(g.column()) + ")";
        String grantee = g.grantee() == null ? "PUBLIC" : PostgresIdentifiers.quote(g.grantee());
        return "GRANT " + g.privilege() + column + " ON TABLE " + target + " TO " + grantee
                + (g.grantable() && g.grantee() != null ? " WITH GRANT OPTION" : "");
    }
}

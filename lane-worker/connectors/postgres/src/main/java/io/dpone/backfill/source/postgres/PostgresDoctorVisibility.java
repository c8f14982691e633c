package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the source role sees every row of the source table. Row-level security without BYPASSRLS, or a view in
 * front of the table, lets the role read fewer rows than the table holds: the campaign would then load, count and
 * validate only those, and every number would match. Both are ERRORs.
 */
public final class PostgresDoctorVisibility {
    /** Row security applies to the current role unless it is a superuser, has BYPASSRLS, or owns a non-forced table. */
    private static final String ROW_SECURITY = """
            SELECT c.relrowsecurity AND NOT r.rolsuper AND NOT r.rolbypassrls
                   AND (c.relforcerowsecurity OR NOT pg_catalog.pg_has_role(c.relowner, 'USAGE')),
                   current_user,
                   ARRAY(SELECT p.polname::text FROM pg_catalog.pg_policy p WHERE p.polrelid = c.oid ORDER BY 1)
              FROM pg_catalog.pg_class c, pg_catalog.pg_roles r
             WHERE c.oid = ?::oid AND r.rolname = current_user""";

    private final Connection source;
    private final List<Finding> findings;

    PostgresDoctorVisibility(Connection source, List<Finding> findings) {
        this.source = source;
        this.findings = findings;
    }

    void check(Relation table) throws SQLException {
        String name = table.schema() + "." + table.name();
        if (table.kind() == 'v') {
            findings.add(Finding.error("source.table.view", "source " + name + " is a view: a view (or a security"
                    + " barrier in it) can hide rows of the tables behind it, and hidden rows would be left out while"
                    + " every count matched", "Point spec.source.table at the table itself, read by a role that"
                    + " sees every row."));
            return;
        }
        try (PreparedStatement ps = source.prepareStatement(ROW_SECURITY)) {
            ps.setLong(1, table.oid());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return;
                }
                if (rs.getBoolean(1)) {
                    List<String> policies = new ArrayList<>(List.of((String[]) rs.getArray(3).getArray()));
                    findings.add(Finding.error("source.table.row-security", "row-level security on " + name
                            + " applies to role " + rs.getString(2) + " (policies " + policies + "): the campaign would"
                            + " load only the rows those policies let it see, and validation would pass",
                            "Read the source with a role that has BYPASSRLS (ALTER ROLE ... BYPASSRLS) or owns the"
                                    + " table without FORCE ROW LEVEL SECURITY."));
                } else {
                    findings.add(Finding.ok("source.table.all-rows-visible", "role " + rs.getString(2)
                            + " sees every row of " + name + " (no row-level security applies to it)"));
                }
            }
        }
    }
}

package io.dpone.backfill.targets.postgres.doctor;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresJdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Objects bound to the live table by oid, which a swap by rename would leave on the backup: dependent views,
 * triggers, row-level security, publication membership (foreign keys from other tables are re-pointed by the swap:
 * {@link PostgresDoctorForeignKeys}). They are found here,
 * before the campaign, never after the swap. Grants are copied by the swap and reported for information.
 */
public final class PostgresDoctorBindings {
    private static final String VIEWS = """
            SELECT DISTINCT vn.nspname || '.' || v.relname
              FROM pg_catalog.pg_depend d
              JOIN pg_catalog.pg_rewrite r ON r.oid = d.objid
              JOIN pg_catalog.pg_class v ON v.oid = r.ev_class
              JOIN pg_catalog.pg_namespace vn ON vn.oid = v.relnamespace
             WHERE d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass
               AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass
               AND d.refobjid = ?::oid AND v.oid <> d.refobjid
             ORDER BY 1""";
    private static final String TRIGGERS = """
            SELECT tgname FROM pg_catalog.pg_trigger WHERE tgrelid = ?::oid AND NOT tgisinternal ORDER BY 1""";
    private static final String ROW_SECURITY = """
            SELECT 'row level security enabled' FROM pg_catalog.pg_class WHERE oid = ?::oid AND relrowsecurity
            UNION ALL
            SELECT 'policy ' || polname FROM pg_catalog.pg_policy WHERE polrelid = ?::oid""";
    private static final String PUBLICATIONS = """
            SELECT p.pubname FROM pg_catalog.pg_publication_rel r JOIN pg_catalog.pg_publication p ON p.oid = r.prpubid
             WHERE r.prrelid = ?::oid ORDER BY 1""";
    private static final String GRANTEES = """
            SELECT DISTINCT CASE WHEN e.grantee = 0 THEN 'PUBLIC' ELSE pg_catalog.pg_get_userbyid(e.grantee) END
              FROM pg_catalog.pg_class c, LATERAL pg_catalog.aclexplode(c.relacl) e
             WHERE c.oid = ?::oid AND e.grantee <> c.relowner
            UNION
            SELECT DISTINCT CASE WHEN e.grantee = 0 THEN 'PUBLIC' ELSE pg_catalog.pg_get_userbyid(e.grantee) END
              FROM pg_catalog.pg_attribute a, LATERAL pg_catalog.aclexplode(a.attacl) e
             WHERE a.attrelid = ?::oid AND a.attnum > 0 AND NOT a.attisdropped
               AND e.grantee <> (SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid = a.attrelid)
             ORDER BY 1""";

    private final Connection target;
    private final List<Finding> findings;

    PostgresDoctorBindings(Connection target, List<Finding> findings) {
        this.target = target;
        this.findings = findings;
    }

    void check(Relation live) throws SQLException {
        String table = live.schema() + "." + live.name();
        int before = findings.size();
        List<String> views = list(VIEWS, live.oid(), 1);
        if (!views.isEmpty()) {
            findings.add(Finding.error("target.binding.view", "views " + views + " depend on " + table + ": after"
                    + " the swap they would keep reading the backup", "Drop these views before publication and"
                    + " recreate them afterwards (CREATE OR REPLACE VIEW with the same text binds to the new table)."));
        }
        List<String> triggers = list(TRIGGERS, live.oid(), 1);
        if (!triggers.isEmpty()) {
            findings.add(Finding.error("target.binding.trigger", "triggers " + triggers + " on " + table + " are not"
                    + " copied to the shadow: the published table would run without them", "Drop the triggers for"
                    + " the campaign and recreate them on the published table, or load without this target."));
        }
        List<String> security = list(ROW_SECURITY, live.oid(), 2);
        if (!security.isEmpty()) {
            findings.add(Finding.error("target.binding.row-security", table + " has " + security + ", which the"
                    + " swap does not copy: the published table would show every row to every reader",
                    "Disable row level security and drop the policies for the campaign, then recreate them on the"
                            + " published table before granting access."));
        }
        List<String> publications = list(PUBLICATIONS, live.oid(), 1);
        if (!publications.isEmpty()) {
            findings.add(Finding.error("target.binding.publication", table + " is a member of publications "
                    + publications + ": after the swap they would keep publishing the backup",
                    "ALTER PUBLICATION ... DROP TABLE before publication and ADD TABLE afterwards (subscribers"
                            + " then need a fresh copy)."));
        }
        if (findings.size() == before) {
            findings.add(Finding.ok("target.bindings.none", "no views, triggers, policies or"
                    + " publications are bound to " + table));
        }
        grants(live, table);
    }

    private void grants(Relation live, String table) throws SQLException {
        List<String> grantees = list(GRANTEES, live.oid(), 2);
        if (grantees.isEmpty()) {
            findings.add(Finding.ok("target.grants.none", table + " has no grants beyond its owner"));
        } else {
            findings.add(Finding.warning("target.grants.copied", table + " grants privileges to " + grantees
                    + "; the swap copies the grants and the owner onto the published table", "Make grant changes"
                    + " before publication, or repeat them on the published table; the backup keeps its own."));
        }
    }

    private List<String> list(String sql, long oid, int oidParameters) throws SQLException {
        Object[] oids = new Object[oidParameters];
        java.util.Arrays.fill(oids, oid);
        return new PostgresJdbc(target).strings(sql, oids);
    }
}

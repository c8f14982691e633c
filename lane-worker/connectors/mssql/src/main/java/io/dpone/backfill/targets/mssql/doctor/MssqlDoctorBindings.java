package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Severity;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorTarget.LiveTarget;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Objects bound to the live table that a swap by sp_rename would leave on the backup or point somewhere else,
 * found before the campaign, never after the swap. SQL Server binds triggers, security predicates, change tracking
 * and CDC to the object id (they follow the renamed table to the backup); views, synonyms and modules name the table
 * (they resolve to the published table), except schema-bound ones, which block the rename. Foreign keys, which the
 * swap re-points, are {@link MssqlDoctorForeignKeys}'. Each family runs on its own: one failing query does not hide
 * the others.
 */
final class MssqlDoctorBindings {
    private static final String REFERENCING_MODULES = """
            SELECT DISTINCT QUOTENAME(SCHEMA_NAME(o.schema_id)) + N'.' + QUOTENAME(o.name) + N' ('
                   + LOWER(o.type_desc) + N')' + CASE WHEN m.is_schema_bound = 1 THEN N' schema-bound' ELSE N'' END
              FROM sys.sql_expression_dependencies d
              JOIN sys.objects o ON o.object_id = d.referencing_id
              JOIN sys.sql_modules m ON m.object_id = d.referencing_id
             WHERE d.referenced_id = ? AND d.referencing_id <> d.referenced_id
               AND (m.is_schema_bound = 1 OR o.type = 'V')""";
    private static final String TRIGGERS = "SELECT t.name FROM sys.triggers t WHERE t.parent_id = ? ORDER BY 1";
    private static final String SYNONYMS = """
            SELECT QUOTENAME(SCHEMA_NAME(s.schema_id)) + N'.' + QUOTENAME(s.name) + N' for ' + s.base_object_name
              FROM sys.synonyms s
             WHERE OBJECT_ID(s.base_object_name) = ?
             ORDER BY 1""";
    private static final String HAS_SECURITY_PREDICATES = "SELECT OBJECT_ID(N'sys.security_predicates')";
    private static final String SECURITY_PREDICATES = """
            SELECT QUOTENAME(OBJECT_SCHEMA_NAME(p.object_id)) + N'.' + QUOTENAME(OBJECT_NAME(p.object_id)) + N' ('
                   + p.predicate_type_desc + N' predicate ' + p.predicate_definition + N')'
              FROM sys.security_predicates p
             WHERE p.target_object_id = ?
             ORDER BY 1""";
    private static final String CHANGE_TRACKING = "SELECT N'change tracking' FROM sys.change_tracking_tables ct"
            + " WHERE ct.object_id = ?";
    private static final String CDC = "SELECT N'change data capture' FROM sys.tables t WHERE t.object_id = ?"
            + " AND t.is_tracked_by_cdc = 1";
    private static final String GRANTS = """
            SELECT p.state_desc + N' ' + p.permission_name
                   + CASE WHEN p.minor_id > 0 THEN N' (' + COL_NAME(p.major_id, p.minor_id) + N')' ELSE N'' END
                   + N' TO ' + QUOTENAME(USER_NAME(p.grantee_principal_id))
              FROM sys.database_permissions p
             WHERE p.class = 1 AND p.major_id = ?
             ORDER BY 1""";

    private final List<Finding> findings;
    private final MssqlDoctorSql sql;

    MssqlDoctorBindings(Connection target, List<Finding> findings) {
        this.findings = findings;
        this.sql = new MssqlDoctorSql(target);
    }

    void check(LiveTarget live) {
        int before = findings.size();
        String table = live.shown();
        MssqlDoctorGuard.run("target.binding.modules", findings, () -> modules(live));
        MssqlDoctorGuard.run("target.binding.trigger", findings, () -> {
            List<String> triggers = sql.strings(TRIGGERS, live.objectId());
            if (!triggers.isEmpty()) {
                findings.add(Finding.warning("target.binding.trigger", "triggers " + triggers + " on " + table
                        + " stay with the backup: the published table would run without them",
                        "Script the triggers now and create them on the published table right after publication,"
                                + " or confirm that it should run without them."));
            }
        });
        MssqlDoctorGuard.run("target.binding.synonym", findings, () -> {
            List<String> synonyms = sql.strings(SYNONYMS, live.objectId());
            if (!synonyms.isEmpty()) {
                findings.add(Finding.warning("target.binding.synonym", "synonyms " + synonyms + " name " + table
                        + ": they resolve by name, so after the swap they reach the published table", "Confirm"
                        + " that their users should read the published table; point them at the backup explicitly"
                        + " if not."));
            }
        });
        MssqlDoctorGuard.run("target.binding.security-policy", findings, () -> securityPredicates(live));
        MssqlDoctorGuard.run("target.binding.change-tracking", findings, () -> tracking(live));
        if (findings.stream().skip(before).noneMatch(f -> f.severity() != Severity.OK)) {
            findings.add(Finding.ok("target.bindings.none", "no views, schema-bound modules, triggers, synonyms,"
                    + " security predicates, change tracking or CDC are bound to " + table));
        }
        MssqlDoctorGuard.run("target.grants", findings, () -> grants(live));
    }

    private void modules(LiveTarget live) throws SQLException {
        List<String> modules = sql.strings(REFERENCING_MODULES, live.objectId());
        List<String> bound = modules.stream().filter(m -> m.endsWith(" schema-bound")).sorted().toList();
        List<String> views = modules.stream().filter(m -> !m.endsWith(" schema-bound")).sorted().toList();
        if (!bound.isEmpty()) {
            findings.add(Finding.error("target.binding.schema-bound", bound + " are bound to " + live.shown()
                    + " WITH SCHEMABINDING: SQL Server refuses to rename a table that schema-bound objects"
                    + " reference, so the swap would fail", "Before publication, ALTER these objects without"
                    + " SCHEMABINDING (or drop them); afterwards re-create them WITH SCHEMABINDING on the published"
                    + " table."));
        }
        if (!views.isEmpty()) {
            findings.add(Finding.warning("target.binding.view", "views " + views + " read " + live.shown() + " by"
                    + " name: after the swap they read the published table, but their stored column metadata (a"
                    + " SELECT * above all) still describes the old one", "Run EXEC sp_refreshview on each of them"
                    + " right after publication."));
        }
    }

    /** sys.security_predicates exists from SQL Server 2016 on; a server without it has no security policies. */
    private void securityPredicates(LiveTarget live) throws SQLException {
        if (sql.integer(HAS_SECURITY_PREDICATES) == null) {
            findings.add(Finding.ok("target.binding.security-policy.unavailable", "this server has no"
                    + " sys.security_predicates, so no security policy can filter " + live.shown()));
            return;
        }
        List<String> predicates = sql.strings(SECURITY_PREDICATES, live.objectId());
        if (!predicates.isEmpty()) {
            findings.add(Finding.error("target.binding.security-policy", "security policies " + predicates
                    + " filter " + live.shown() + ": rows could be hidden from the campaign's reads and"
                    + " fingerprints, and the policy follows the renamed table to the backup, leaving the published"
                    + " table unfiltered", "ALTER SECURITY POLICY ... WITH (STATE = OFF) and drop the predicates on"
                    + " this table for the campaign, then add them to the published table before granting access."));
        }
    }

    private void tracking(LiveTarget live) throws SQLException {
        List<String> trackers = new java.util.ArrayList<>(sql.strings(CHANGE_TRACKING, live.objectId()));
        trackers.addAll(sql.strings(CDC, live.objectId()));
        if (!trackers.isEmpty()) {
            findings.add(Finding.warning("target.binding.change-tracking", live.shown() + " has " + trackers
                    + ", which follow the renamed table to the backup: consumers would see no changes of the"
                    + " published table", "After publication, enable change tracking or CDC on the published"
                    + " table and disable it on the backup; downstream consumers then need a fresh snapshot."));
        }
    }

    private void grants(LiveTarget live) throws SQLException {
        List<String> grants = sql.strings(GRANTS, live.objectId());
        if (grants.isEmpty()) {
            findings.add(Finding.ok("target.grants.none", live.shown() + " has no explicit permissions"));
        } else {
            findings.add(Finding.warning("target.grants.copied", live.shown() + " has explicit permissions "
                    + grants + "; publication carries them over to the shadow before the swap", "Make permission"
                    + " changes before publication, or repeat them on the published table; the backup keeps its"
                    + " own."));
        }
    }
}

package io.dpone.backfill.target.mssql.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.target.mssql.MssqlIdentifiers;
import io.dpone.backfill.target.mssql.doctor.MssqlDoctorTarget.LiveTarget;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What the campaign's database user must be allowed to do, as HAS_PERMS_BY_NAME evaluates it for the current user:
 * create the shadow (CREATE TABLE in the database, ALTER on the target schema), rename the live table (ALTER on
 * it), fingerprint and load it (SELECT, INSERT), and create the ledger (ALTER on an existing state schema, or
 * CREATE SCHEMA). Application locks (sp_getapplock) need no permission beyond the database's public role.
 */
final class MssqlDoctorPrivileges {
    private static final String HAS_DATABASE = "SELECT HAS_PERMS_BY_NAME(DB_NAME(), N'DATABASE', ?)";
    private static final String HAS_SCHEMA = "SELECT HAS_PERMS_BY_NAME(?, N'SCHEMA', ?)";
    private static final String HAS_OBJECT = "SELECT HAS_PERMS_BY_NAME(?, N'OBJECT', ?)";

    private final BackfillCampaignSpec spec;
    private final List<Finding> findings;
    private final MssqlDoctorSql sql;
    private String user;
    private boolean problem;

    MssqlDoctorPrivileges(Connection target, BackfillCampaignSpec spec, List<Finding> findings) {
        this.spec = spec;
        this.findings = findings;
        this.sql = new MssqlDoctorSql(target);
    }

    /** {@code live} is null when the target table is missing; the table's permissions are then not checked. */
    void check(LiveTarget live) throws SQLException {
        user = sql.strings("SELECT USER_NAME()").get(0);
        String schema = spec.getTarget().getSchema();
        if (!allowed(HAS_DATABASE, "CREATE TABLE")) {
            deny("target.database.create-table-denied", "cannot create tables in this database (the shadow is"
                    + " created in " + schema + ")", "GRANT CREATE TABLE TO " + grantee() + ";");
        }
        if (sql.integer("SELECT SCHEMA_ID(?)", schema) == null) {
            deny("target.schema.missing", "finds no target schema " + schema, "Fix spec.target.schema, or create"
                    + " the schema and the reviewed target table first.");
        } else if (!allowed(HAS_SCHEMA, schema, "ALTER")) {
            deny("target.schema.alter-denied", "cannot create the shadow in target schema " + schema
                    + " (ALTER on the schema)", "GRANT ALTER ON SCHEMA::" + MssqlIdentifiers.quote(schema) + " TO "
                    + grantee() + ";");
        }
        if (live != null) {
            table(live, "ALTER", "target.table.alter-denied", "cannot rename live table " + live.shown()
                    + " (the swap renames it to the backup)");
            table(live, "SELECT", "target.table.select-denied", "cannot read live table " + live.shown()
                    + " (it is fingerprinted at preparation and again at publication)");
            table(live, "INSERT", "target.table.insert-denied", "cannot insert into live table " + live.shown()
                    + " (the published table must accept the same writes)");
        }
        stateSchema();
        catalogVisibility();
        findings.add(Finding.ok("target.privileges.applock", "application locks (sp_getapplock) need no permission"
                + " beyond the database's public role"));
        if (!problem) {
            findings.add(Finding.ok("target.privileges.ok", "user " + user + " can create the shadow and the ledger"
                    + (live == null ? "" : " and read, load and rename the live table")));
        }
    }

    private void stateSchema() throws SQLException {
        String state = spec.getState().getSchema();
        if (sql.integer("SELECT SCHEMA_ID(?)", state) == null) {
            if (!allowed(HAS_DATABASE, "CREATE SCHEMA")) {
                deny("state.database.create-schema-denied", "finds no state schema " + state + " and cannot create"
                        + " schemas in this database", "CREATE SCHEMA " + MssqlIdentifiers.quote(state)
                        + " AUTHORIZATION " + grantee() + "; as an administrator, or GRANT CREATE SCHEMA TO "
                        + grantee() + ";");
            }
        } else if (!allowed(HAS_SCHEMA, state, "ALTER")) {
            deny("state.schema.alter-denied", "cannot create the ledger tables in state schema " + state,
                    "GRANT ALTER ON SCHEMA::" + MssqlIdentifiers.quote(state) + " TO " + grantee() + ";");
        }
    }

    /**
     * SQL Server shows a user only the catalog rows of objects it holds a permission on: without VIEW DEFINITION,
     * views, foreign keys and triggers bound to the live table, or a table holding the shadow's name, may be hidden
     * from this doctor. It does not block (nothing the campaign does needs it), so it is a WARNING.
     */
    private void catalogVisibility() throws SQLException {
        if (!allowed(HAS_DATABASE, "VIEW DEFINITION")) {
            findings.add(Finding.warning("target.catalog.partly-visible", "database user " + user + " lacks VIEW"
                    + " DEFINITION: objects it holds no permission on are hidden from the catalog views, so bound"
                    + " views, foreign keys, triggers and taken artifact names may go unreported",
                    "GRANT VIEW DEFINITION TO " + grantee() + "; then rerun doctor (or run doctor once as a user"
                            + " that has it)."));
        }
    }

    private void table(LiveTarget live, String permission, String code, String what) throws SQLException {
        if (!allowed(HAS_OBJECT, live.qualified(), permission)) {
            deny(code, what, "GRANT " + permission + " ON OBJECT::" + live.qualified() + " TO " + grantee() + ";");
        }
    }

    /** True when HAS_PERMS_BY_NAME says 1; 0 or NULL (an invalid class or permission) counts as not allowed. */
    private boolean allowed(String query, Object... parameters) throws SQLException {
        return Integer.valueOf(1).equals(sql.integer(query, parameters));
    }

    private void deny(String code, String what, String action) {
        problem = true;
        findings.add(Finding.error(code, "database user " + user + " " + what, action));
    }

    private String grantee() {
        return MssqlIdentifiers.quote(user);
    }
}

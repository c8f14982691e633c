package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.targets.mssql.doctor.MssqlPermissionProbe.Snapshot;

import java.util.ArrayList;
import java.util.List;

import static io.dpone.backfill.targets.mssql.doctor.MssqlPermissionFact.*;

/**
 * Every statement a campaign runs on SQL Server, by phase, against the permission it needs (sql-docs
 * docs/t-sql/statements/* "Permissions" sections), decided from a {@link Snapshot}. Each missing permission is an
 * ERROR naming the statement and the GRANT (or role) that fixes it. The shadow, and the ledger tables when this user
 * does not own the state schema, are new objects owned by the schema's owner: grants on the live table never reach
 * them, so what they need is checked on the schema.
 * <ul>
 * <li>prepare: CREATE TABLE of the shadow (CREATE TABLE in the database and ALTER on the schema), its extended
 * property stamp (ALTER on it); the ledger's CREATE SCHEMA / CREATE TABLE (CREATE SCHEMA, or ALTER on the state
 * schema);</li>
 * <li>load: INSERT BULK into the shadow: "bcp in minimally requires SELECT/INSERT on the target table", plus ALTER
 * because identity values are kept and constraints are not checked (docs/tools/bcp-utility.md, Permissions);
 * ledger writes (SELECT, INSERT, UPDATE on the state schema);</li>
 * <li>validation: SELECT on the shadow; the live table's fingerprint (SELECT on it);</li>
 * <li>publication: CREATE INDEX / ALTER TABLE ADD CONSTRAINT and ALTER INDEX on the shadow (ALTER), sp_rename of the
 * live table and of the shadow (ALTER on each), DBCC CHECKIDENT when the table has an identity column (schema owner,
 * db_owner, db_ddladmin or sysadmin: docs/t-sql/database-console-commands/dbcc-checkident-transact-sql.md), GRANT /
 * DENY of the live table's grants on the shadow (CONTROL on it: GRANT's grantor needs the permission WITH GRANT
 * OPTION or one that implies it, docs/t-sql/statements/grant-object-permissions-transact-sql.md), ALTER AUTHORIZATION
 * to the live table's explicit owner (TAKE OWNERSHIP and IMPERSONATE, alter-authorization-transact-sql.md);</li>
 * <li>rollback: sp_rename of the published table and the backup (ALTER on the schema);</li>
 * <li>sp_getapplock: the public role (docs/relational-databases/system-stored-procedures/sp-getapplock-transact-sql.md).</li>
 * </ul>
 */
final class MssqlPermissionVerdict {
    /** The live table as shown and as quoted; null when it is missing (its own checks are then skipped). */
    record Live(String shown, String qualified) {
    }

    private final Snapshot snapshot;
    private final String targetSchema;
    private final String stateSchema;
    private final Live live;
    private final List<Finding> findings = new ArrayList<>();

    MssqlPermissionVerdict(Snapshot snapshot, String targetSchema, String stateSchema, Live live) {
        this.snapshot = snapshot;
        this.targetSchema = targetSchema;
        this.stateSchema = stateSchema;
        this.live = live;
    }

    /** Every ERROR, the catalog-visibility WARNING, and the OK findings. */
    List<Finding> findings() {
        boolean problem = false;
        problem |= deny(!has(DATABASE_CREATE_TABLE), "target.database.create-table-denied", "cannot create tables in"
                + " this database: the shadow (in " + targetSchema + ") and the ledger tables (in " + stateSchema
                + ") are created with CREATE TABLE", "GRANT CREATE TABLE TO " + grantee() + ";");
        if (!has(TARGET_SCHEMA_EXISTS)) {
            problem |= deny(true, "target.schema.missing", "finds no target schema " + targetSchema, "Fix"
                    + " spec.target.schema, or create the schema and the reviewed target table first.");
        } else {
            problem |= targetSchema();
        }
        if (live != null) {
            problem |= liveTable();
        }
        problem |= stateSchema();
        if (!has(DATABASE_VIEW_DEFINITION)) {
            findings.add(Finding.warning("target.catalog.partly-visible", "database user " + snapshot.user() + " lacks"
                    + " VIEW DEFINITION: objects it holds no permission on are hidden from the catalog views, so"
                    + " bound views, foreign keys, triggers, grants on the live table and taken artifact names may go"
                    + " unreported", "GRANT VIEW DEFINITION TO " + grantee() + "; then rerun doctor (or run doctor"
                    + " once as a user that has it)."));
        }
        findings.add(Finding.ok("target.privileges.applock", "application locks (sp_getapplock) need no permission"
                + " beyond the database's public role"));
        if (!problem) {
            findings.add(Finding.ok("target.privileges.ok", "user " + snapshot.user() + " holds every permission"
                    + " the load, validation, swap and rollback use" + (live == null ? " (the live table's own"
                    + " were not checked: it is missing)" : "")));
        }
        return findings;
    }

    private boolean targetSchema() {
        String schema = "SCHEMA::" + MssqlIdentifiers.quote(targetSchema);
        boolean problem = deny(!has(TARGET_SCHEMA_ALTER), "target.schema.alter-denied", "lacks ALTER on target schema "
                + targetSchema + ": prepare (CREATE TABLE of the shadow, its stamp), load (INSERT BULK keeps identity"
                + " values and skips constraint checks, which needs ALTER on the shadow), publication (CREATE INDEX"
                + " and constraints on the shadow, sp_rename of the shadow) and rollback (sp_rename back) need it",
                "GRANT ALTER ON " + schema + " TO " + grantee() + ";");
        problem |= deny(!has(TARGET_SCHEMA_SELECT) || !has(TARGET_SCHEMA_INSERT), "target.shadow.load-denied",
                "lacks " + missing(TARGET_SCHEMA_SELECT, "SELECT", TARGET_SCHEMA_INSERT, "INSERT") + " on target"
                + " schema " + targetSchema + ": the lanes' INSERT BULK into the shadow (a new table owned by the"
                + " schema's owner, which grants on the live table do not reach) needs SELECT and INSERT on it, and"
                + " validation reads it", "GRANT SELECT, INSERT ON " + schema + " TO " + grantee() + ";");
        return problem;
    }

    private boolean liveTable() {
        String object = "OBJECT::" + live.qualified();
        boolean problem = deny(!has(LIVE_ALTER), "target.table.alter-denied", "cannot rename live table " + live.shown()
                + " (the swap's sp_rename makes it the backup; rollback renames it back)",
                "GRANT ALTER ON " + object + " TO " + grantee() + ";");
        problem |= deny(!has(LIVE_SELECT), "target.table.select-denied", "cannot read live table " + live.shown()
                + " (it is fingerprinted at preparation and again at publication)",
                "GRANT SELECT ON " + object + " TO " + grantee() + ";");
        problem |= deny(!has(LIVE_INSERT), "target.table.insert-denied", "cannot insert into live table "
                + live.shown() + " (the published table must accept the same writes)",
                "GRANT INSERT ON " + object + " TO " + grantee() + ";");
        if (has(LIVE_HAS_IDENTITY)) {
            problem |= deny(!(has(TARGET_SCHEMA_OWNED) || has(DB_OWNER) || has(DB_DDLADMIN) || has(SYSADMIN)),
                    "target.swap.checkident-denied", "cannot run DBCC CHECKIDENT on the shadow, which the swap"
                    + " runs to move the identity of " + live.shown() + "'s replacement past every value already"
                    + " issued: it needs ownership of schema " + targetSchema + " (ALTER AUTHORIZATION ON SCHEMA::"
                    + MssqlIdentifiers.quote(targetSchema) + ") or membership in db_owner, db_ddladmin or sysadmin;"
                    + " ALTER or CONTROL permissions are not enough",
                    "ALTER ROLE [db_ddladmin] ADD MEMBER " + grantee() + ";");
        }
        if (has(LIVE_HAS_GRANTS) && targetSchemaExists()) {
            problem |= deny(!has(TARGET_SCHEMA_CONTROL), "target.swap.grants-denied", "cannot carry the object"
                    + " permissions of " + live.shown() + " to the shadow (GRANT/DENY/REVOKE on it at the swap needs"
                    + " CONTROL on it, which ALTER on the schema does not give)", "GRANT CONTROL ON SCHEMA::"
                    + MssqlIdentifiers.quote(targetSchema) + " TO " + grantee() + ";");
        }
        if (has(LIVE_HAS_OWNER) && targetSchemaExists()) {
            problem |= deny(!has(TARGET_SCHEMA_CONTROL) || !has(LIVE_OWNER_GIVABLE), "target.swap.owner-denied",
                    "cannot give the shadow the explicit owner of " + live.shown() + " (ALTER AUTHORIZATION at the"
                    + " swap needs TAKE OWNERSHIP on the shadow, which CONTROL on the schema gives, and IMPERSONATE on"
                    + " that owner)", "GRANT CONTROL ON SCHEMA::" + MssqlIdentifiers.quote(targetSchema) + " TO "
                    + grantee() + "; and GRANT IMPERSONATE ON USER::<owner of " + live.shown() + "> TO " + grantee()
                    + "; (SELECT USER_NAME(principal_id) FROM sys.objects WHERE object_id = OBJECT_ID(N'"
                    + MssqlIdentifiers.inLiteral(live.qualified()) + "') names it)");
        }
        return problem;
    }

    private boolean stateSchema() {
        String schema = "SCHEMA::" + MssqlIdentifiers.quote(stateSchema);
        if (!has(STATE_SCHEMA_EXISTS)) {
            // CREATE SCHEMA without AUTHORIZATION makes this user its owner: it then holds every right in it.
            return deny(!has(DATABASE_CREATE_SCHEMA), "state.database.create-schema-denied", "finds no state schema "
                    + stateSchema + " and cannot create schemas in this database", "CREATE SCHEMA "
                    + MssqlIdentifiers.quote(stateSchema) + " AUTHORIZATION " + grantee() + "; as an administrator,"
                    + " or GRANT CREATE SCHEMA TO " + grantee() + ";");
        }
        boolean problem = deny(!has(STATE_SCHEMA_ALTER), "state.schema.alter-denied", "cannot create the ledger"
                + " tables in state schema " + stateSchema + " (ALTER on the schema)",
                "GRANT ALTER ON " + schema + " TO " + grantee() + ";");
        problem |= deny(!has(STATE_SCHEMA_SELECT) || !has(STATE_SCHEMA_INSERT) || !has(STATE_SCHEMA_UPDATE),
                "state.schema.write-denied", "lacks " + missing(STATE_SCHEMA_SELECT, "SELECT", STATE_SCHEMA_INSERT,
                        "INSERT", STATE_SCHEMA_UPDATE, "UPDATE") + " on state schema " + stateSchema + ": the ledger"
                        + " tables belong to the schema's owner, and claims, receipts and leases read, insert and"
                        + " update them", "GRANT SELECT, INSERT, UPDATE ON " + schema + " TO " + grantee() + ";");
        return problem;
    }

    private boolean targetSchemaExists() {
        return has(TARGET_SCHEMA_EXISTS);
    }

    /** The names of the facts (given as fact, name pairs) that do not hold, joined with " and ". */
    private String missing(Object... factsAndNames) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < factsAndNames.length; i += 2) {
            if (!has((MssqlPermissionFact) factsAndNames[i])) {
                names.add((String) factsAndNames[i + 1]);
            }
        }
        return String.join(" and ", names);
    }

    private boolean has(MssqlPermissionFact fact) {
        return snapshot.has(fact);
    }

    private boolean deny(boolean denied, String code, String what, String action) {
        if (denied) {
            findings.add(Finding.error(code, "database user " + snapshot.user() + " " + what, action));
        }
        return denied;
    }

    private String grantee() {
        return MssqlIdentifiers.quote(snapshot.user());
    }
}

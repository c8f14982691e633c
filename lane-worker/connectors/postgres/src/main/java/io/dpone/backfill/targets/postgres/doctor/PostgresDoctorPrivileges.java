package io.dpone.backfill.targets.postgres.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What the target role must be allowed to do: create the shadow in the target schema, create the ledger (in the
 * state schema, or the schema itself in the database), and rename the live table (owner or member of the owning
 * role, which ALTER TABLE requires).
 */
public final class PostgresDoctorPrivileges {
    private final Connection target;
    private final BackfillCampaignSpec spec;
    private final List<Finding> findings;

    PostgresDoctorPrivileges(Connection target, BackfillCampaignSpec spec, List<Finding> findings) {
        this.target = target;
        this.spec = spec;
        this.findings = findings;
    }

    /** {@code live} may be null when the target table is missing; the ownership check is then skipped. */
    void check(Relation live) throws SQLException {
        String role = currentUser();
        String schema = spec.getTarget().getSchema();
        boolean problem = false;
        Boolean schemaAllowed = bool("SELECT pg_catalog.has_schema_privilege(n.oid, 'USAGE') AND pg_catalog.has_schema_privilege(n.oid, 'CREATE') FROM"
                + " pg_catalog.pg_namespace n WHERE n.nspname = ?", schema);
        if (schemaAllowed == null) {
            problem = true;
            findings.add(Finding.error("target.schema.missing", "target schema " + schema + " does not exist",
                    "Fix spec.target.schema, or create the schema and the reviewed target table first."));
        } else if (!schemaAllowed) {
            problem = true;
            findings.add(Finding.error("target.schema.create-denied", "role " + role + " cannot create tables in"
                    + " target schema " + schema + " (the shadow is created there)", "GRANT USAGE, CREATE ON SCHEMA "
                    + PostgresIdentifiers.quote(schema) + " TO " + PostgresIdentifiers.quote(role) + "."));
        }
        problem |= stateSchema(role);
        if (live != null && !Boolean.TRUE.equals(bool("SELECT pg_catalog.pg_has_role(current_user, c.relowner, 'USAGE')"
                + " FROM pg_catalog.pg_class c WHERE c.oid = ?::oid", live.oid()))) {
            problem = true;
            findings.add(Finding.error("target.table.not-owner", "role " + role + " does not own target table "
                    + live.schema() + "." + live.name() + " (owner " + live.owner() + "): the swap must rename it",
                    "GRANT " + PostgresIdentifiers.quote(live.owner()) + " TO " + PostgresIdentifiers.quote(role)
                            + ", or run the campaign as the table's owner."));
        }
        if (!problem) {
            findings.add(Finding.ok("target.privileges.ok", "role " + role + " can create the shadow and the ledger"
                    + (live == null ? "" : " and rename the live table")));
        }
    }

    private boolean stateSchema(String role) throws SQLException {
        String state = spec.getState().getSchema();
        Boolean schemaAllowed = bool("SELECT pg_catalog.has_schema_privilege(n.oid, 'USAGE') AND pg_catalog.has_schema_privilege(n.oid, 'CREATE') FROM"
                + " pg_catalog.pg_namespace n WHERE n.nspname = ?", state);
        if (schemaAllowed == null) {
            if (!Boolean.TRUE.equals(bool("SELECT pg_catalog.has_database_privilege(pg_catalog.current_database(), 'CREATE')", null))) {
                findings.add(Finding.error("state.database.create-denied", "state schema " + state + " does not exist"
                        + " and role " + role + " cannot create schemas in this database",
                        "CREATE SCHEMA " + PostgresIdentifiers.quote(state) + " AUTHORIZATION "
                                + PostgresIdentifiers.quote(role) + " as an administrator, or GRANT CREATE ON DATABASE."));
                return true;
            }
            return false;
        }
        if (!schemaAllowed) {
            findings.add(Finding.error("state.schema.create-denied", "role " + role + " cannot create the ledger"
                    + " tables in state schema " + state, "GRANT USAGE, CREATE ON SCHEMA "
                    + PostgresIdentifiers.quote(state) + " TO " + PostgresIdentifiers.quote(role) + "."));
            return true;
        }
        return false;
    }

    private String currentUser() throws SQLException {
        return new PostgresJdbc(target).strings("SELECT current_user").get(0);
    }

    /** The boolean in the first row; null when there is no row (the object does not exist). */
    private Boolean bool(String sql, Object parameter) throws SQLException {
        return parameter == null ? new PostgresJdbc(target).bool(sql) : new PostgresJdbc(target).bool(sql, parameter);
    }
}

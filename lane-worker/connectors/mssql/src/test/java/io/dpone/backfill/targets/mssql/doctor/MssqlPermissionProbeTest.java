package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.targets.mssql.doctor.MssqlPermissionProbe.Subjects;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The permission probe as sent: one column per fact, named after it, each parameter bound to the subject it names.
 * HAS_PERMS_BY_NAME (securable, securable_class, permission), IS_ROLEMEMBER (role) and IS_SRVROLEMEMBER (role) as
 * MicrosoftDocs/sql-docs docs/t-sql/functions/has-perms-by-name-transact-sql.md, is-rolemember-transact-sql.md and
 * is-srvrolemember-transact-sql.md give them; sys.schemas.principal_id is the schema's owner.
 */
class MssqlPermissionProbeTest {
    @Test
    void everyFactIsOneNamedColumnOfOneSelect() {
        String sql = MssqlPermissionProbe.sql();

        assertThat(sql).startsWith("SELECT USER_NAME() AS user_name, ");
        for (MssqlPermissionFact fact : MssqlPermissionFact.values()) {
            assertThat(sql).contains(fact.expression() + " AS " + fact.column());
        }
        assertThat(sql).contains("IS_SRVROLEMEMBER(N'sysadmin') AS sysadmin",
                "IS_ROLEMEMBER(N'db_ddladmin') AS db_ddladmin",
                "HAS_PERMS_BY_NAME(DB_NAME(), N'DATABASE', N'CREATE TABLE') AS database_create_table",
                "HAS_PERMS_BY_NAME(?, N'SCHEMA', N'INSERT') AS target_schema_insert",
                "HAS_PERMS_BY_NAME(?, N'SCHEMA', N'CONTROL') AS target_schema_control",
                "HAS_PERMS_BY_NAME(?, N'OBJECT', N'ALTER') AS live_alter",
                "OBJECTPROPERTY(OBJECT_ID(?), N'TableHasIdentity') AS live_has_identity",
                "s.principal_id = USER_ID()", "FROM sys.schemas AS s WHERE s.name = ?) AS target_schema_owned",
                "HAS_PERMS_BY_NAME(?, N'SCHEMA', N'UPDATE') AS state_schema_update",
                "HAS_PERMS_BY_NAME(USER_NAME(o.principal_id), N'USER', N'IMPERSONATE') = 1");
    }

    @Test
    void eachPlaceholderIsBoundToTheSubjectItsFactNames() {
        List<Object> parameters = MssqlPermissionProbe.parameters(new Subjects("dbo", "[dbo].[orders]", "bf_state"));

        assertThat(parameters).hasSize((int) MssqlPermissionProbe.sql().chars().filter(c -> c == '?').count());
        int i = 0;
        for (MssqlPermissionFact fact : MssqlPermissionFact.values()) {
            switch (fact.subject()) {
                case NONE -> {
                    continue;
                }
                case TARGET_SCHEMA -> assertThat(parameters.get(i)).as(fact.name()).isEqualTo("dbo");
                case LIVE_TABLE -> assertThat(parameters.get(i)).as(fact.name()).isEqualTo("[dbo].[orders]");
                case STATE_SCHEMA -> assertThat(parameters.get(i)).as(fact.name()).isEqualTo("bf_state");
            }
            i++;
        }
    }
}

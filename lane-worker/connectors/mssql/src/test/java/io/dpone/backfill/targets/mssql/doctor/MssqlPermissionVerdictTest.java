package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Severity;
import io.dpone.backfill.targets.mssql.doctor.MssqlPermissionProbe.Snapshot;
import io.dpone.backfill.targets.mssql.doctor.MssqlPermissionVerdict.Live;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static io.dpone.backfill.targets.mssql.doctor.MssqlPermissionFact.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The permission verdict from hand-written snapshots of the probe's result ({@link MssqlPermissionProbeTest} binds
 * the snapshot to the probe's SQL). What each statement needs, from MicrosoftDocs/sql-docs: bcp in needs SELECT and
 * INSERT on the target table, and ALTER when identity values are kept or constraints unchecked
 * (docs/tools/bcp-utility.md, Permissions); DBCC CHECKIDENT needs schema ownership, db_owner, db_ddladmin or sysadmin
 * (docs/t-sql/database-console-commands/dbcc-checkident-transact-sql.md, Permissions); a new table in a schema is owned
 * by the schema's owner, so object grants on the live table do not reach it.
 */
class MssqlPermissionVerdictTest {
    private static final Live LIVE = new Live("dbo.orders", "[dbo].[orders]");

    /** Both schemas exist; the live table has an identity column and grants to carry. */
    private static Set<MssqlPermissionFact> facts(MssqlPermissionFact... held) {
        Set<MssqlPermissionFact> facts = EnumSet.of(TARGET_SCHEMA_EXISTS, STATE_SCHEMA_EXISTS, LIVE_HAS_IDENTITY,
                LIVE_HAS_GRANTS, DATABASE_VIEW_DEFINITION);
        facts.addAll(List.of(held));
        return facts;
    }

    private static List<Finding> verdict(Set<MssqlPermissionFact> held) {
        return new MssqlPermissionVerdict(new Snapshot("loader", held), "dbo", "backfill_state", LIVE).findings();
    }

    private static List<String> errors(List<Finding> findings) {
        return findings.stream().filter(f -> f.severity() == Severity.ERROR).map(Finding::code).toList();
    }

    private static Finding finding(List<Finding> findings, String code) {
        return findings.stream().filter(f -> f.code().equals(code)).findFirst().orElseThrow(() ->
                new AssertionError("no " + code + " in " + findings));
    }

    @Test
    void aReaderWriterWithAlterOnTheLiveTableCannotCreateBulkLoadOrReseedTheShadow() {
        // db_datareader + db_datawriter: SELECT, INSERT, UPDATE on every schema; ALTER granted on the live table only.
        List<Finding> findings = verdict(facts(TARGET_SCHEMA_SELECT, TARGET_SCHEMA_INSERT, STATE_SCHEMA_SELECT,
                STATE_SCHEMA_INSERT, STATE_SCHEMA_UPDATE, LIVE_SELECT, LIVE_INSERT, LIVE_ALTER));

        assertThat(errors(findings)).containsExactlyInAnyOrder("target.database.create-table-denied",
                "target.schema.alter-denied", "target.swap.checkident-denied", "target.swap.grants-denied",
                "state.schema.alter-denied");
        assertThat(finding(findings, "target.schema.alter-denied").message()).contains("INSERT BULK", "ALTER on the shadow");
        assertThat(finding(findings, "target.schema.alter-denied").recommendedAction())
                .isEqualTo("GRANT ALTER ON SCHEMA::[dbo] TO [loader];");
        assertThat(finding(findings, "target.swap.checkident-denied").message())
                .contains("DBCC CHECKIDENT", "ownership of schema dbo", "db_ddladmin");
        assertThat(finding(findings, "target.swap.checkident-denied").recommendedAction())
                .isEqualTo("ALTER ROLE [db_ddladmin] ADD MEMBER [loader];");
        assertThat(findings).extracting(Finding::code).doesNotContain("target.privileges.ok");
    }

    @Test
    void grantsOnTheLiveTableDoNotReachTheShadowSoItsBulkInsertNeedsSelectAndInsertOnTheSchema() {
        List<Finding> findings = verdict(facts(DATABASE_CREATE_TABLE, TARGET_SCHEMA_ALTER, LIVE_SELECT, LIVE_INSERT,
                LIVE_ALTER, STATE_SCHEMA_ALTER, STATE_SCHEMA_SELECT, STATE_SCHEMA_INSERT, STATE_SCHEMA_UPDATE,
                TARGET_SCHEMA_OWNED, TARGET_SCHEMA_CONTROL));

        assertThat(errors(findings)).containsExactly("target.shadow.load-denied");
        Finding load = finding(findings, "target.shadow.load-denied");
        assertThat(load.message()).contains("lacks SELECT and INSERT on target schema dbo", "INSERT BULK into the shadow");
        assertThat(load.recommendedAction()).isEqualTo("GRANT SELECT, INSERT ON SCHEMA::[dbo] TO [loader];");
    }

    @Test
    void checkidentIsAllowedToTheSchemaOwnerDbOwnerDdlAdminAndSysadminOnly() {
        Set<MssqlPermissionFact> allButIdentityRights = facts(DATABASE_CREATE_TABLE, TARGET_SCHEMA_ALTER,
                TARGET_SCHEMA_SELECT, TARGET_SCHEMA_INSERT, TARGET_SCHEMA_CONTROL, LIVE_SELECT, LIVE_INSERT, LIVE_ALTER,
                STATE_SCHEMA_ALTER, STATE_SCHEMA_SELECT, STATE_SCHEMA_INSERT, STATE_SCHEMA_UPDATE);
        assertThat(errors(verdict(allButIdentityRights))).containsExactly("target.swap.checkident-denied");

        for (MssqlPermissionFact right : List.of(TARGET_SCHEMA_OWNED, DB_OWNER, DB_DDLADMIN, SYSADMIN)) {
            Set<MssqlPermissionFact> held = EnumSet.copyOf(allButIdentityRights);
            held.add(right);
            List<Finding> findings = verdict(held);
            assertThat(errors(findings)).as(right.name()).isEmpty();
            assertThat(findings).extracting(Finding::code).as(right.name()).contains("target.privileges.ok");
        }
    }

    @Test
    void aTableWithoutIdentityOrGrantsNeedsNeitherCheckidentNorControl() {
        Set<MssqlPermissionFact> held = EnumSet.of(TARGET_SCHEMA_EXISTS, STATE_SCHEMA_EXISTS, DATABASE_CREATE_TABLE,
                TARGET_SCHEMA_ALTER, TARGET_SCHEMA_SELECT, TARGET_SCHEMA_INSERT, LIVE_SELECT, LIVE_INSERT, LIVE_ALTER,
                STATE_SCHEMA_ALTER, STATE_SCHEMA_SELECT, STATE_SCHEMA_INSERT, STATE_SCHEMA_UPDATE);

        List<Finding> findings = verdict(held);

        assertThat(errors(findings)).isEmpty();
        assertThat(findings).extracting(Finding::code).contains("target.privileges.ok", "target.catalog.partly-visible");
    }

    @Test
    void carryingTheLiveTablesGrantsNeedsControlOnTheSchema() {
        Set<MssqlPermissionFact> held = facts(DATABASE_CREATE_TABLE, TARGET_SCHEMA_ALTER, TARGET_SCHEMA_SELECT,
                TARGET_SCHEMA_INSERT, LIVE_SELECT, LIVE_INSERT, LIVE_ALTER, DB_DDLADMIN, STATE_SCHEMA_ALTER,
                STATE_SCHEMA_SELECT, STATE_SCHEMA_INSERT, STATE_SCHEMA_UPDATE);

        List<Finding> findings = verdict(held);

        assertThat(errors(findings)).containsExactly("target.swap.grants-denied");
        assertThat(finding(findings, "target.swap.grants-denied").recommendedAction())
                .isEqualTo("GRANT CONTROL ON SCHEMA::[dbo] TO [loader];");
    }

    @Test
    void theLedgerNeedsToWriteTablesItMayNotOwnInTheStateSchema() {
        Set<MssqlPermissionFact> held = facts(DB_OWNER, DATABASE_CREATE_TABLE, TARGET_SCHEMA_ALTER, TARGET_SCHEMA_SELECT,
                TARGET_SCHEMA_INSERT, TARGET_SCHEMA_CONTROL, LIVE_SELECT, LIVE_INSERT, LIVE_ALTER, STATE_SCHEMA_ALTER,
                STATE_SCHEMA_SELECT);

        List<Finding> findings = verdict(held);

        assertThat(errors(findings)).containsExactly("state.schema.write-denied");
        assertThat(finding(findings, "state.schema.write-denied").message()).contains("lacks INSERT and UPDATE on state"
                + " schema backfill_state");
        assertThat(finding(findings, "state.schema.write-denied").recommendedAction())
                .isEqualTo("GRANT SELECT, INSERT, UPDATE ON SCHEMA::[backfill_state] TO [loader];");
    }

    @Test
    void aMissingStateSchemaNeedsCreateSchemaAndThenItsCreatorOwnsIt() {
        Set<MssqlPermissionFact> held = EnumSet.of(TARGET_SCHEMA_EXISTS, DATABASE_CREATE_TABLE, TARGET_SCHEMA_ALTER,
                TARGET_SCHEMA_SELECT, TARGET_SCHEMA_INSERT, LIVE_SELECT, LIVE_INSERT, LIVE_ALTER);

        assertThat(errors(verdict(held))).containsExactly("state.database.create-schema-denied");
        held.add(DATABASE_CREATE_SCHEMA);
        assertThat(errors(verdict(held))).isEmpty();
    }

    @Test
    void aMissingTargetSchemaOrLiveTableSkipsWhatDependsOnIt() {
        List<Finding> findings = new MssqlPermissionVerdict(new Snapshot("loader", EnumSet.of(STATE_SCHEMA_EXISTS,
                DATABASE_CREATE_TABLE, STATE_SCHEMA_ALTER, STATE_SCHEMA_SELECT, STATE_SCHEMA_INSERT, STATE_SCHEMA_UPDATE,
                DATABASE_VIEW_DEFINITION)), "nope", "backfill_state", null).findings();

        assertThat(errors(findings)).containsExactly("target.schema.missing");
    }

    @Test
    void givingTheShadowTheLiveTablesOwnNeedsControlAndImpersonationOfThatOwner() {
        Set<MssqlPermissionFact> held = facts(DB_DDLADMIN, DATABASE_CREATE_TABLE, TARGET_SCHEMA_ALTER,
                TARGET_SCHEMA_SELECT, TARGET_SCHEMA_INSERT, TARGET_SCHEMA_CONTROL, LIVE_SELECT, LIVE_INSERT, LIVE_ALTER,
                STATE_SCHEMA_ALTER, STATE_SCHEMA_SELECT, STATE_SCHEMA_INSERT, STATE_SCHEMA_UPDATE, LIVE_HAS_OWNER);

        List<Finding> findings = verdict(held);

        assertThat(errors(findings)).containsExactly("target.swap.owner-denied");
        assertThat(finding(findings, "target.swap.owner-denied").recommendedAction())
                .contains("GRANT IMPERSONATE ON USER::", "OBJECT_ID(N'[dbo].[orders]')");
        held.add(LIVE_OWNER_GIVABLE);
        assertThat(errors(verdict(held))).isEmpty();
    }
}

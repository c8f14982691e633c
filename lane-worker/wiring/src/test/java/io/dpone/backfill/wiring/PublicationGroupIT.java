package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.engine.BlockReason;
import io.dpone.backfill.core.engine.NextAction;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Publication groups on a real PostgreSQL (issue 27, ADR 0041): two tables whose foreign keys reference each other
 * (a cycle no order of single publications can satisfy) load in two campaigns, wait for each other validated, and
 * publish in one transaction: the keys between the members end up on the published tables and validated, another
 * table's key follows its referenced member, the backups keep referencing each other; a rollback of one member
 * swaps both back. Rows that break a key between members hold the group and block the member they belong to.
 */
class PublicationGroupIT {
    private static final String CHUNKS = "{column: id, kind: integer, buckets: 3, lowerBound: 1, upperBound: 1000}";
    private static final String GROUP = "  publication: {mode: shadow_swap, group: {name: org, members: [department, employee]}}\n";
    private static final String DEPARTMENT = "CREATE TABLE public.department (id bigint PRIMARY KEY, name text, manager_id bigint)";
    private static final String EMPLOYEE = "CREATE TABLE public.employee (id bigint PRIMARY KEY, department_id bigint NOT NULL)";
    /** The cycle, as the target's reviewed schema has it: department -> employee (manager), employee -> department. */
    private static final String[] KEYS = {
            "ALTER TABLE public.department ADD CONSTRAINT department_manager_fk FOREIGN KEY (manager_id) REFERENCES public.employee (id)",
            "ALTER TABLE public.employee ADD CONSTRAINT employee_department_fk FOREIGN KEY (department_id) REFERENCES public.department (id)",
            "CREATE TABLE public.badge (id bigint PRIMARY KEY, employee_id bigint CONSTRAINT badge_employee_fk REFERENCES public.employee (id))"};

    private CampaignHarness h;

    @BeforeEach
    void setUp() throws Exception {
        h = new CampaignHarness();
        // The source: 50 departments managed by employees 1..50; 900 employees, none in the target's old set.
        h.source.execute(DEPARTMENT, EMPLOYEE,
                "INSERT INTO public.department SELECT i, 'dept ' || i, i FROM generate_series(1, 50) i",
                "INSERT INTO public.employee SELECT i, (i % 50) + 1 FROM generate_series(1, 900) i");
        // The target's old, consistent set: department 500 managed by employee 500; a badge of employee 7, who is
        // only in the new set, cannot exist yet: the badge references employee 500 of the old set... and 7 after.
        h.target.execute(DEPARTMENT, EMPLOYEE,
                "INSERT INTO public.department VALUES (500, 'old', NULL)",
                "INSERT INTO public.employee VALUES (500, 500)",
                "UPDATE public.department SET manager_id = 500");
        h.target.execute(KEYS);
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void twoTablesThatReferenceEachOtherPublishTogetherAndRollBackTogether() throws Exception {
        CampaignBlueprint department = campaign("org_department", "department");
        CampaignBlueprint employee = campaign("org_employee", "employee");
        try (CampaignRuntime d = h.session(department); CampaignRuntime e = h.session(employee)) {
            CampaignLease dLease = CampaignHarness.openAndLease(d, department);
            assertThat(doctorCodes(d, department)).contains("target.foreign-key.group-member");
            StepResult validated = h.runUntil(department, d, dLease, CampaignPhase.Publishing);
            assertThat(validated.phase()).as(validated.message()).isEqualTo(CampaignPhase.Publishing);
            StepResult waiting = d.engine().step(dLease);
            assertThat(waiting.next()).isEqualTo(new NextAction.AwaitGroup("org",
                    List.of("employee (no campaign of the group for it yet)")));
            assertThat(waiting.message()).contains("publication group org: 1 of 2 members ready");
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.department")).as("nothing published yet").isEqualTo(1);

            CampaignLease eLease = CampaignHarness.openAndLease(e, employee);
            StepResult published = h.runToSettled(employee, e, eLease);
            assertThat(published.phase()).as(published.message()).isEqualTo(CampaignPhase.HandoffCommitted);
            assertThat(d.ledger().publicationReceipt(department.identity().runKey())).as("published with employee").isPresent();
            StepResult handedOff = h.runToSettled(department, d, dLease);
            assertThat(handedOff.phase()).as(handedOff.message()).isEqualTo(CampaignPhase.HandoffCommitted);

            assertThat(h.target.queryForLong("SELECT count(*) FROM public.department")).isEqualTo(50);
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.employee")).isEqualTo(900);
            assertThat(referenced("department_manager_fk", "public.department")).isEqualTo("employee validated");
            assertThat(referenced("employee_department_fk", "public.employee")).isEqualTo("department validated");
            assertThat(referenced("badge_employee_fk", "public.badge")).isEqualTo("employee validated");
            h.target.execute("INSERT INTO public.badge VALUES (1, 7)");
            // The backups keep the old set, referencing each other.
            String backup = department.artifacts().backupTable();
            assertThat(h.target.queryForString("SELECT c.relname || CASE WHEN k.convalidated THEN ' validated' ELSE '' END"
                    + " FROM pg_constraint k JOIN pg_class c ON c.oid = k.confrelid WHERE k.contype = 'f'"
                    + " AND k.conrelid = 'public." + backup + "'::regclass"))
                    .as("the backups keep referencing each other").isEqualTo(employee.artifacts().backupTable() + " validated");
            h.target.execute("DELETE FROM public.badge");

            CampaignLease again = d.ledger().acquireLease(department.identity().runKey(), dLease.owner(),
                    CampaignHarness.FAST.leaseTtl()).orElseThrow();
            d.publisher().rollback(again, department.artifacts(), "department", "wrong export", false);
            assertThat(d.ledger().rollbackReceipt(employee.identity().runKey())).as("employee rolled back with it").isPresent();
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.department")).isEqualTo(1);
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.employee")).isEqualTo(1);
            assertThat(referenced("department_manager_fk", "public.department")).isEqualTo("employee validated");
            assertThat(referenced("employee_department_fk", "public.employee")).isEqualTo("department validated");
            assertThat(referenced("badge_employee_fk", "public.badge")).isEqualTo("employee validated");
            assertThat(h.target.queryForLong("SELECT manager_id FROM public.department")).isEqualTo(500);
        }
    }

    @Test
    void rowsThatBreakAKeyBetweenMembersBlockTheirMemberHoldTheOtherAndPublishNothing() throws Exception {
        // Employees of department 77, which the source's departments lack.
        h.source.execute("INSERT INTO public.employee SELECT i, 77 FROM generate_series(901, 903) i");
        CampaignBlueprint department = campaign("org_department2", "department");
        CampaignBlueprint employee = campaign("org_employee2", "employee");
        try (CampaignRuntime d = h.session(department); CampaignRuntime e = h.session(employee)) {
            CampaignLease dLease = CampaignHarness.openAndLease(d, department);
            CampaignLease eLease = CampaignHarness.openAndLease(e, employee);
            h.runUntil(department, d, dLease, CampaignPhase.Publishing);
            assertThat(d.engine().step(dLease).next()).isInstanceOf(NextAction.AwaitGroup.class);

            StepResult blocked = h.runToSettled(employee, e, eLease);
            assertThat(blocked.phase()).as(blocked.message()).isEqualTo(CampaignPhase.Blocked);
            assertThat(blocked.blockReason()).isEqualTo(BlockReason.FOREIGN_KEY_ORPHANS);
            assertThat(blocked.message()).contains("3 rows").contains("(department_id)=(77)");

            StepResult held = d.engine().step(dLease);
            assertThat(held.phase()).isEqualTo(CampaignPhase.Publishing);
            assertThat(held.next()).isEqualTo(new NextAction.AwaitGroup("org", List.of("employee (Blocked)")));
            assertThat(d.ledger().publicationReceipt(department.identity().runKey())).isEmpty();
        }
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.department")).as("nothing published").isEqualTo(1);
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.employee")).isEqualTo(1);
        assertThat(referenced("employee_department_fk", "public.employee")).isEqualTo("department validated");
    }

    private static CampaignBlueprint campaign(String backfillId, String table) {
        return CampaignHarness.blueprint(CampaignHarness.campaign(backfillId, CHUNKS, GROUP).table(table));
    }

    private static List<String> doctorCodes(CampaignRuntime s, CampaignBlueprint b) {
        return s.preflight(b, null).run().report().findings().stream().map(Finding::code).toList();
    }

    /** The table a table's constraint references, and whether it is validated. */
    private String referenced(String constraint, String onTable) throws Exception {
        return h.target.queryForString("SELECT c.relname || CASE WHEN k.convalidated THEN ' validated' ELSE ' NOT VALID' END"
                + " FROM pg_constraint k JOIN pg_class c ON c.oid = k.confrelid WHERE k.conname = '" + constraint
                + "' AND k.conrelid = '" + onTable + "'::regclass");
    }
}

package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.engine.BlockReason;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.publish.ReferencedKeysMissingException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Foreign keys on a real PostgreSQL (issue 27): other tables' keys that reference the live table are re-pointed at
 * the published table in the swap and back in a rollback, validated each time; rows that would break one block
 * publication with their count and a sample, before any change; the live table's own keys are validated on the
 * shadow after loading with the same particulars; doctor predicts each outcome before the campaign.
 */
class ForeignKeysIT {
    private static final String CHUNKS = "{column: id, kind: integer, buckets: 4, lowerBound: 1, upperBound: 1000}";
    private static final String SHADOW = "  publication: {mode: shadow_swap}\n";
    private static final String ORDERS = "CREATE TABLE public.orders (id bigint PRIMARY KEY, v text)";
    /** Another table referencing the live table: its rows point at orders 1 and 2. */
    private static final String[] LINES = {
            "CREATE TABLE public.lines (id bigint PRIMARY KEY, order_id bigint"
                    + " CONSTRAINT lines_order_fk REFERENCES public.orders (id) ON DELETE CASCADE)",
            "COMMENT ON CONSTRAINT lines_order_fk ON public.lines IS 'every line has its order'",
            "INSERT INTO public.lines VALUES (1, 1), (2, 2), (3, NULL)"};

    private CampaignHarness h;

    @BeforeEach
    void setUp() {
        h = new CampaignHarness();
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void anInboundForeignKeyFollowsThePublishedTableAndGoesBackWithARollback() throws Exception {
        h.source.execute(ORDERS, "INSERT INTO public.orders SELECT i, 'new' FROM generate_series(1, 900) i");
        h.target.execute(ORDERS, "INSERT INTO public.orders VALUES (1, 'old'), (2, 'old')");
        h.target.execute(LINES);
        CampaignBlueprint b = campaign("orders_fk", "orders");
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = CampaignHarness.openAndLease(s, b);
            assertThat(doctorCodes(s, b)).contains("target.binding.inbound-foreign-key");
            StepResult r = h.runToSettled(b, s, lease);
            assertThat(r.phase()).as(r.message()).isEqualTo(CampaignPhase.HandoffCommitted);

            assertThat(referencedBy("lines_order_fk")).as("the key checks against the published table").isEqualTo("orders");
            assertThat(h.target.queryForString("SELECT convalidated::text FROM pg_constraint WHERE conname = 'lines_order_fk'"))
                    .isEqualTo("true");
            assertThat(h.target.queryForString("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'lines_order_fk'"))
                    .as("its actions kept").contains("ON DELETE CASCADE");
            assertThat(h.target.queryForString("SELECT obj_description(oid, 'pg_constraint') FROM pg_constraint"
                    + " WHERE conname = 'lines_order_fk'")).isEqualTo("every line has its order");
            h.target.execute("INSERT INTO public.lines VALUES (4, 900)");
            assertThatThrownBy(() -> h.target.execute("INSERT INTO public.lines VALUES (5, 901)"))
                    .as("enforced against the published rows").hasMessageContaining("lines_order_fk");
            h.target.execute("DELETE FROM public.lines WHERE id = 4");

            CampaignLease again = s.ledger().acquireLease(b.identity().runKey(), lease.owner(), CampaignHarness.FAST.leaseTtl()).orElseThrow();
            s.publisher().rollback(again, b.artifacts(), "orders", "wrong rows", false);
            assertThat(referencedBy("lines_order_fk")).as("back on the restored table").isEqualTo("orders");
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.orders")).as("the old table is live").isEqualTo(2);
            assertThat(h.target.queryForString("SELECT c.relname FROM pg_constraint k JOIN pg_class c ON c.oid = k.confrelid"
                    + " WHERE k.conname = 'lines_order_fk'")).isEqualTo("orders");
            assertThatThrownBy(() -> h.target.execute("INSERT INTO public.lines VALUES (6, 900)"))
                    .as("enforced against the restored rows again").hasMessageContaining("lines_order_fk");
        }
    }

    @Test
    void rowsReferencingKeysTheLoadLacksBlockPublicationWithTheirCountAndASampleAndChangeNothing() throws Exception {
        h.source.execute(ORDERS, "INSERT INTO public.orders SELECT i, 'new' FROM generate_series(1, 900) i");
        h.target.execute(ORDERS, "INSERT INTO public.orders VALUES (1, 'old'), (2, 'old'), (5000, 'old'), (5001, 'old')");
        h.target.execute(LINES);
        h.target.execute("INSERT INTO public.lines VALUES (10, 5000), (11, 5001), (12, 5001)");
        CampaignBlueprint b = campaign("orders_orphans", "orders");
        try (CampaignRuntime s = h.session(b)) {
            assertThatThrownBy(() -> s.engine().open(s.preflight(b, null)))
                    .as("doctor predicts it").isInstanceOfSatisfying(PreflightRefusedException.class, e -> assertThat(
                            e.result().errors()).anySatisfy(f -> {
                        assertThat(f.code()).isEqualTo("target.foreign-key.referenced-key-missing");
                        assertThat(f.message()).contains("2 of its 4 distinct values").contains("5000, 5001");
                    }));
            s.engine().open(s.preflight(b, "the test"));
            CampaignLease lease = s.ledger().acquireLease(b.identity().runKey(), "driver", CampaignHarness.FAST.leaseTtl()).orElseThrow();
            StepResult r = h.runToSettled(b, s, lease);
            assertThat(r.phase()).as(r.message()).isEqualTo(CampaignPhase.Blocked);
            assertThat(r.blockReason()).isEqualTo(BlockReason.FOREIGN_KEY_ORPHANS);
            assertThat(r.message()).contains("foreign key lines_order_fk on public.lines").contains("3 rows of public.lines")
                    .contains("(order_id)=(5000), (order_id)=(5001)").contains("nothing was changed");
            assertThat(s.ledger().publicationReceipt(b.identity().runKey())).isEmpty();
        }
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.orders")).as("the live table untouched").isEqualTo(4);
        assertThat(referencedBy("lines_order_fk")).isEqualTo("orders");
        assertThat(h.target.queryForString("SELECT convalidated::text FROM pg_constraint WHERE conname = 'lines_order_fk'"))
                .isEqualTo("true");
    }

    @Test
    void anEarlierCampaignsBackupKeepsItsKeyOnTheOldTableAndDoesNotHoldThePublicationBack() throws Exception {
        h.source.execute(ORDERS, "INSERT INTO public.orders SELECT i, 'new' FROM generate_series(1, 900) i");
        h.target.execute(ORDERS, "INSERT INTO public.orders VALUES (1, 'old'), (5000, 'old')",
                "CREATE TABLE public.lines_bf_backup (id bigint PRIMARY KEY,"
                        + " order_id bigint CONSTRAINT old_lines_fk REFERENCES public.orders (id))",
                "COMMENT ON TABLE public.lines_bf_backup IS 'dpone-backfill backup run_key=rk-earlier'",
                "INSERT INTO public.lines_bf_backup VALUES (1, 5000)");
        CampaignBlueprint b = campaign("orders_after_backup", "orders");
        try (CampaignRuntime s = h.session(b)) {
            StepResult r = h.runToSettled(b, s, CampaignHarness.openAndLease(s, b));
            assertThat(r.phase()).as(r.message()).isEqualTo(CampaignPhase.HandoffCommitted);
        }
        assertThat(referencedBy("old_lines_fk")).as("the backup's key stays on the old rows").endsWith("(not live)");
    }

    @Test
    void doctorProbesACompositeInboundKeyTupleByTuple() throws Exception {
        String orders = "CREATE TABLE public.orders (id bigint PRIMARY KEY, v text, CONSTRAINT orders_id_v UNIQUE (id, v))";
        h.source.execute(orders, "INSERT INTO public.orders SELECT i, 'new' FROM generate_series(1, 900) i");
        h.target.execute(orders, "CREATE TABLE public.refs (id bigint PRIMARY KEY, order_id bigint, order_v text,"
                + " CONSTRAINT refs_order_fk FOREIGN KEY (order_id, order_v) REFERENCES public.orders (id, v))",
                "INSERT INTO public.orders VALUES (1, 'new'), (2, 'gone')",
                "INSERT INTO public.refs VALUES (1, 1, 'new'), (2, 2, 'gone'), (3, 2, NULL)");
        CampaignBlueprint b = campaign("orders_composite", "orders");
        try (CampaignRuntime s = h.session(b)) {
            assertThatThrownBy(() -> s.engine().open(s.preflight(b, null)))
                    .isInstanceOfSatisfying(PreflightRefusedException.class, e -> assertThat(e.result().errors())
                            .anySatisfy(f -> {
                                assertThat(f.code()).isEqualTo("target.foreign-key.referenced-key-missing");
                                assertThat(f.message()).contains("refs_order_fk").contains("1 of its 2 distinct values")
                                        .contains("(2, gone)");
                            }));
        }
    }

    @Test
    void anOutboundForeignKeyIsValidatedAfterLoadingAndItsOrphansBlockWithCountAndSample() throws Exception {
        h.source.execute("CREATE TABLE public.customers (id bigint PRIMARY KEY)",
                "CREATE TABLE public.orders (id bigint PRIMARY KEY, customer_id bigint)",
                "INSERT INTO public.orders SELECT i, CASE WHEN i <= 850 THEN i % 10 + 1 ELSE 100 + i END"
                        + " FROM generate_series(1, 900) i");
        h.target.execute("CREATE TABLE public.customers (id bigint PRIMARY KEY)",
                "CREATE TABLE public.orders (id bigint PRIMARY KEY,"
                        + " customer_id bigint CONSTRAINT orders_customer_fk REFERENCES public.customers (id))");
        CampaignBlueprint b = campaign("orders_out", "orders");
        try (CampaignRuntime s = h.session(b)) {
            assertThatThrownBy(() -> s.engine().open(s.preflight(b, null)))
                    .as("an empty referenced table is predicted").isInstanceOfSatisfying(PreflightRefusedException.class,
                            e -> assertThat(e.result().errors()).extracting(Finding::code)
                                    .contains("target.foreign-key.referenced-empty"));
        }
        h.target.execute("INSERT INTO public.customers SELECT generate_series(1, 10)");
        try (CampaignRuntime s = h.session(b)) {
            assertThat(doctorCodes(s, b)).contains("target.foreign-key.validated-after-load");
            StepResult r = h.runToSettled(b, s, CampaignHarness.openAndLease(s, b));
            assertThat(r.phase()).as(r.message()).isEqualTo(CampaignPhase.Blocked);
            assertThat(r.blockReason()).isEqualTo(BlockReason.FOREIGN_KEY_ORPHANS);
            assertThat(r.message()).contains("orders_customer_fk (customer_id) references public.customers")
                    .contains("50 rows of ").contains("(customer_id)=(951)").contains("the live table is untouched");
        }
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.orders")).isZero();
    }

    @Test
    void anOutboundForeignKeyThatHoldsPublishesValidated() throws Exception {
        h.source.execute("CREATE TABLE public.orders (id bigint PRIMARY KEY, customer_id bigint)",
                "INSERT INTO public.orders SELECT i, i % 10 + 1 FROM generate_series(1, 900) i");
        h.target.execute("CREATE TABLE public.customers (id bigint PRIMARY KEY)",
                "INSERT INTO public.customers SELECT generate_series(1, 10)",
                "CREATE TABLE public.orders (id bigint PRIMARY KEY,"
                        + " customer_id bigint CONSTRAINT orders_customer_fk REFERENCES public.customers (id))");
        CampaignBlueprint b = campaign("orders_out_ok", "orders");
        try (CampaignRuntime s = h.session(b)) {
            StepResult r = h.runToSettled(b, s, CampaignHarness.openAndLease(s, b));
            assertThat(r.phase()).as(r.message()).isEqualTo(CampaignPhase.HandoffCommitted);
        }
        assertThat(h.target.queryForString("SELECT convalidated::text FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid"
                + " WHERE c.relname = 'orders' AND k.conname = 'orders_customer_fk'")).isEqualTo("true");
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.orders")).isEqualTo(900);
    }

    @Test
    void theOrphanExceptionCarriesItsParticulars() {
        ReferencedKeysMissingException e = new ReferencedKeysMissingException("fk on public.lines", "public.lines", 1,
                List.of("(order_id)=(7)"));
        assertThat(e.getMessage()).isEqualTo("foreign key fk on public.lines would not hold: 1 row of public.lines"
                + " references a key the table moving in lacks, e.g. (order_id)=(7); nothing was changed");
        assertThat(e.orphanRows()).isEqualTo(1);
    }

    private static CampaignBlueprint campaign(String backfillId, String table) {
        return CampaignHarness.blueprint(CampaignHarness.campaign(backfillId, CHUNKS, SHADOW).table(table));
    }

    private static List<String> doctorCodes(CampaignRuntime s, CampaignBlueprint b) {
        return s.preflight(b, null).run().report().findings().stream().map(Finding::code).toList();
    }

    /** The table a constraint of public.lines references, by name. */
    private String referencedBy(String constraint) throws Exception {
        return h.target.queryForString("SELECT c.relname || CASE WHEN c.oid = 'public.orders'::regclass THEN '' ELSE ' (not live)' END"
                + " FROM pg_constraint k JOIN pg_class c ON c.oid = k.confrelid WHERE k.conname = '" + constraint + "'");
    }
}

package io.dpone.backfill.wiring;

import io.dpone.backfill.connect.Connector;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.engine.PhaseDetail;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.lane.LaneExit;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.publish.PublishedTableWrittenException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.DriverManager;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The cases where rows used to be lost or hidden behind passing evidence (issue "nothing lost silently"), each on
 * real PostgreSQL through the engine and real lanes. Each test fails when its gate is removed: pre-flight, the
 * source coverage count, the live-target baseline (shape before every chunk, shape and content inside the swap),
 * the rollback fingerprint check.
 */
class NothingLostSilentlyIT {
    private static final String NULL_T_SOURCE = "CREATE TABLE public.null_t (id bigint, v text)";
    private static final String NULL_T_TARGET = "CREATE TABLE public.null_t (id bigint PRIMARY KEY, v text)";
    private static final String INTEGER_CHUNKS = "{column: id, kind: integer, buckets: 8, lowerBound: 1, upperBound: 1000}";
    private static final String SHADOW = "  publication: {mode: shadow_swap}\n";

    private CampaignHarness h;

    @BeforeEach
    void setUp() {
        h = new CampaignHarness();
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    private static CampaignBlueprint campaign(String backfillId, String table, String chunk) {
        return CampaignHarness.blueprint(CampaignHarness.campaign(backfillId, chunk, SHADOW)
                .table(table));
    }

    private CampaignLease open(CampaignRuntime s, CampaignBlueprint b, String skippedBy) {
        s.engine().open(s.preflight(b, skippedBy));
        return s.ledger().acquireLease(b.identity().runKey(), "driver-" + System.nanoTime(), CampaignHarness.FAST.leaseTtl()).orElseThrow();
    }

    /** Nothing of a campaign exists in the target: no ledger schema, no shadow, no backup. */
    private void assertNothingCreated(String table) throws SQLException {
        assertThat(h.target.queryForLong("SELECT count(*) FROM pg_namespace WHERE nspname = 'backfill_state'")).isZero();
        assertThat(h.target.queryForLong("SELECT count(*) FROM pg_class WHERE relname LIKE '" + table + "__bf_%'")).isZero();
    }

    @Test
    void aSourceWithANullChunkKeyIsRefusedByPreflightAndNothingIsCreated() throws Exception {
        h.source.execute(NULL_T_SOURCE, "INSERT INTO public.null_t SELECT i, 'v' || i FROM generate_series(1, 900) i",
                "INSERT INTO public.null_t VALUES (NULL, 'lost')");
        h.target.execute(NULL_T_TARGET);
        CampaignBlueprint b = campaign("null_t_v1", "null_t", INTEGER_CHUNKS);
        try (CampaignRuntime s = h.session(b)) {
            assertThatThrownBy(() -> s.engine().open(s.preflight(b, null)))
                    .isInstanceOfSatisfying(PreflightRefusedException.class, e -> assertThat(e.result().errors())
                            .extracting(f -> f.code()).contains("source.chunk-column.nullable", "source.unique-key.nullable"));
        }
        assertNothingCreated("null_t");
    }

    @Test
    void aNullChunkKeyFoundAtValidationBlocksPublicationWithTheCountWhenPreflightWasSkipped() throws Exception {
        h.source.execute(NULL_T_SOURCE, "INSERT INTO public.null_t SELECT i, 'v' || i FROM generate_series(1, 900) i",
                "INSERT INTO public.null_t VALUES (NULL, 'lost')");
        h.target.execute(NULL_T_TARGET);
        CampaignBlueprint b = campaign("null_t_skip", "null_t", INTEGER_CHUNKS);
        try (CampaignRuntime s = h.session(b)) {
            StepResult r = h.runToSettled(b, s, open(s, b, "--skip-preflight"));

            assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
            assertThat(r.message()).contains("1 source row(s) belong to no chunk");
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.null_t")).as("live table untouched").isZero();
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.null_t__bf_shadow")).as("shadow kept").isEqualTo(900);
            PhaseDetail detail = PhaseDetail.parse(s.ledger().findByRunKey(b.identity().runKey()).orElseThrow().detail());
            assertThat(detail.preflightResult()).isEqualTo("skipped");
            assertThat(detail.preflightSkippedBy()).isEqualTo("--skip-preflight");
            assertThat(detail.coverage().uncoveredRows()).isEqualTo(1);
        }
    }

    @Test
    void aChunkColumnThatBecomesNullableAndReceivesANullRowMidLoadBlocksWithTheCount() throws Exception {
        h.source.execute("CREATE TABLE public.null_t (id bigint NOT NULL, v text)",
                "INSERT INTO public.null_t SELECT i, 'v' || i FROM generate_series(1, 900) i");
        h.target.execute(NULL_T_TARGET);
        CampaignBlueprint b = campaign("null_t_mid", "null_t", INTEGER_CHUNKS);
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = open(s, b, null);
            CampaignHarness.stepUntil(s, lease, CampaignPhase.Loading);
            h.source.execute("ALTER TABLE public.null_t ALTER COLUMN id DROP NOT NULL", "INSERT INTO public.null_t VALUES (NULL, 'late')");

            StepResult r = h.runToSettled(b, s, lease);

            assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
            assertThat(r.message()).contains("changed shape").contains("1 source row(s) belong to no chunk");
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.null_t")).isZero();
        }
    }

    @Test
    void aNotNullChunkColumnIsNotCountedAndTheEvidenceSaysWhy() throws Exception {
        h.source.execute("CREATE TABLE public.null_t (id bigint NOT NULL PRIMARY KEY, v text)",
                "INSERT INTO public.null_t SELECT i, 'v' || i FROM generate_series(1, 900) i");
        h.target.execute(NULL_T_TARGET);
        CampaignBlueprint b = campaign("null_t_ok", "null_t", INTEGER_CHUNKS);
        try (CampaignRuntime s = h.session(b)) {
            assertThat(h.runToSettled(b, s, open(s, b, null)).phase()).isEqualTo(CampaignPhase.HandoffCommitted);
            PhaseDetail detail = PhaseDetail.parse(s.ledger().findByRunKey(b.identity().runKey()).orElseThrow().detail());
            assertThat(detail.coverage().uncoveredRows()).isNull();
            assertThat(detail.coverage().basis()).contains("NOT NULL in the source catalog");
            assertThat(detail.preflightResult()).isEqualTo("passed");
        }
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.null_t")).isEqualTo(900);
    }

    @Test
    void aViewBoundToTheLiveTargetIsRefusedAndTheViewStillReadsTheLiveTable() throws Exception {
        h.source.execute("CREATE TABLE public.orders (id bigint PRIMARY KEY, v text)",
                "INSERT INTO public.orders SELECT i, 'new' FROM generate_series(1, 900) i");
        h.target.execute("CREATE TABLE public.orders (id bigint PRIMARY KEY, v text)", "INSERT INTO public.orders VALUES (1, 'old')",
                "CREATE VIEW public.orders_v AS SELECT * FROM public.orders",
                "CREATE TABLE public.lines (id bigint PRIMARY KEY, order_id bigint REFERENCES public.orders (id))");
        CampaignBlueprint b = campaign("orders_v1", "orders", INTEGER_CHUNKS);
        try (CampaignRuntime s = h.session(b)) {
            assertThatThrownBy(() -> s.engine().open(s.preflight(b, null)))
                    .isInstanceOfSatisfying(PreflightRefusedException.class, e -> assertThat(e.result().errors())
                            .extracting(f -> f.code()).containsExactly("target.binding.view"));
        }
        assertNothingCreated("orders");
        h.target.execute("INSERT INTO public.orders VALUES (2, 'written after the refusal')");
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.orders_v")).as("the view reads the live table").isEqualTo(2);
    }

    @Test
    void aSourceThatRowLevelSecurityRestrictsForTheSourceRoleIsRefused() throws Exception {
        h.source.execute("CREATE TABLE public.t (id bigint PRIMARY KEY, tenant int NOT NULL)",
                "INSERT INTO public.t SELECT i, i % 2 FROM generate_series(1, 900) i",
                "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'loader') THEN CREATE ROLE loader LOGIN; END IF; END $$",
                "GRANT SELECT ON public.t TO loader",
                "ALTER TABLE public.t ENABLE ROW LEVEL SECURITY",
                "CREATE POLICY only_tenant_0 ON public.t FOR SELECT TO loader USING (tenant = 0)");
        h.target.execute("CREATE TABLE public.t (id bigint PRIMARY KEY, tenant int NOT NULL)");
        CampaignBlueprint b = campaign("t_rls", "t", INTEGER_CHUNKS);
        Connector asLoader = app -> DriverManager.getConnection(h.source.jdbcUrl().replace("user=postgres", "user=loader"));
        try (CampaignRuntime s = CampaignRuntime.open(b, asLoader, h.targetConnector, CampaignHarness.FAST, "rls")) {
            assertThatThrownBy(() -> s.engine().open(s.preflight(b, null)))
                    .isInstanceOfSatisfying(PreflightRefusedException.class, e -> assertThat(e.result().errors())
                            .extracting(f -> f.code()).contains("source.table.row-security"));
        }
        assertNothingCreated("t");
    }

    @Test
    void aGeneratedTargetColumnIsComputedByTheTargetAndIdentityContinuesAfterTheLoadedValues() throws Exception {
        h.source.execute("CREATE TABLE public.gen (id bigint PRIMARY KEY, price numeric(10,2) NOT NULL, qty int NOT NULL)",
                "INSERT INTO public.gen SELECT i, (i % 50) + 0.25, i % 7 FROM generate_series(1, 900) i");
        h.target.execute("CREATE TABLE public.gen (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, price numeric(10,2),"
                + " qty int, total numeric(12,2) GENERATED ALWAYS AS (price * qty) STORED)");
        CampaignBlueprint b = campaign("gen_v1", "gen", INTEGER_CHUNKS);
        try (CampaignRuntime s = h.session(b)) {
            assertThat(h.runToSettled(b, s, open(s, b, null)).phase()).isEqualTo(CampaignPhase.HandoffCommitted);
        }
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.gen")).isEqualTo(900);
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.gen WHERE total IS DISTINCT FROM price * qty")).isZero();
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.gen WHERE total <> 0")).isPositive();
        h.target.execute("INSERT INTO public.gen (price, qty) VALUES (1, 1)");
        assertThat(h.target.queryForLong("SELECT max(id) FROM public.gen")).as("identity continues after the highest loaded id").isEqualTo(901);
    }

    @Test
    void aRowInsertedIntoTheLiveTargetMidLoadBlocksPublicationAndStaysLive() throws Exception {
        itemsSource(20_000);
        h.target.execute("CREATE TABLE public.items (id bigint PRIMARY KEY, v text)");
        CampaignBlueprint b = campaign("items_write", "items", "{column: id, kind: integer, buckets: 64, lowerBound: 1, upperBound: 20001}");
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = open(s, b, null);
            CampaignHarness.stepUntil(s, lease, CampaignPhase.Loading);
            h.target.execute("INSERT INTO public.items VALUES (999999, 'written by the application')");

            StepResult r = h.runToSettled(b, s, lease);

            assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
            assertThat(r.message()).contains("written after preparation").contains("0 row(s) then, 1 now");
            assertThat(s.ledger().publicationReceipt(b.identity().runKey())).isEmpty();
        }
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.items WHERE id = 999999")).as("the row is still live").isEqualTo(1);
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).isEqualTo(1);
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.items__bf_shadow")).as("shadow kept").isEqualTo(20_000);
    }

    @Test
    void aColumnAddedToTheLiveTargetMidLoadBlocksBeforeTheNextChunkNamingTheColumn() throws Exception {
        itemsSource(20_000);
        h.target.execute("CREATE TABLE public.items (id bigint PRIMARY KEY, v text)");
        CampaignBlueprint b = campaign("items_alter", "items", "{column: id, kind: integer, buckets: 64, lowerBound: 1, upperBound: 20001}");
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = open(s, b, null);
            CampaignHarness.stepUntil(s, lease, CampaignPhase.Loading);
            h.target.execute("ALTER TABLE public.items ADD COLUMN audit_note text DEFAULT 'x'");

            // Lanes alone (no engine step in between) check the live target before every chunk.
            h.startLanes(b, 2);
            assertThat(h.awaitLanes()).containsOnly(LaneExit.DRIFT);
            assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'")).isZero();
            StepResult r = h.runToSettled(b, s, lease);

            assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
            assertThat(r.message()).contains("column audit_note was added");
            assertThat(s.ledger().publicationReceipt(b.identity().runKey())).isEmpty();
        }
        assertThat(h.target.queryForLong("SELECT count(*) FROM information_schema.columns WHERE table_name = 'items'"
                + " AND column_name = 'audit_note'")).as("the column is still live").isEqualTo(1);
    }

    @Test
    void aRollbackAfterAWriteToThePublishedTableRefusesWithoutAcceptanceAndRecordsItWith() throws Exception {
        itemsSource(2_000);
        h.target.execute("CREATE TABLE public.items (id bigint PRIMARY KEY, v text)");
        CampaignBlueprint b = campaign("items_rb", "items", "{column: id, kind: integer, buckets: 8, lowerBound: 1, upperBound: 2001}");
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = open(s, b, null);
            assertThat(h.runToSettled(b, s, lease).phase()).isEqualTo(CampaignPhase.HandoffCommitted);
            h.target.execute("INSERT INTO public.items VALUES (5000, 'written by incremental sync')");
            CampaignLease again = s.ledger().acquireLease(b.identity().runKey(), lease.owner(), CampaignHarness.FAST.leaseTtl()).orElseThrow();

            assertThatThrownBy(() -> s.publisher().rollback(again, b.artifacts(), "items", "bad data", false))
                    .isInstanceOf(PublishedTableWrittenException.class)
                    .hasMessageContaining("2000 row(s) then, 2001 now").hasMessageContaining("items__bf_");
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).isEqualTo(2001);
            assertThat(s.ledger().rollbackReceipt(b.identity().runKey())).isEmpty();

            RollbackReceipt receipt = s.publisher().rollback(again, b.artifacts(), "items", "bad data", true);
            assertThat(receipt.acceptedWrites()).contains("2000 row(s) then, 2001 now");
            assertThat(s.ledger().rollbackReceipt(b.identity().runKey()).orElseThrow().acceptedWrites())
                    .isEqualTo(receipt.acceptedWrites());
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).as("the previous (empty) table is live").isZero();
        }
    }

    /**
     * Binary pass-through: publication records the receipts' sum of row digests instead of hashing the shadow
     * (ADR 0022), and a rollback digests the published table's rows to compare with it. An update that keeps the
     * count is still seen; a table nobody wrote rolls back without acceptance.
     */
    @Test
    void aRollbackComparesTheReceiptsRowDigestsWithThePublishedRowsAndSeesAnUpdateThatKeepsTheCount() throws Exception {
        itemsSource(2_000);
        h.target.execute("CREATE TABLE public.items (id bigint PRIMARY KEY, v text)");
        CampaignBlueprint b = campaign("items_rd", "items", "{column: id, kind: integer, buckets: 8, lowerBound: 1, upperBound: 2001}");
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = open(s, b, null);
            assertThat(h.runToSettled(b, s, lease).phase()).isEqualTo(CampaignPhase.HandoffCommitted);
            CampaignRecord published = s.ledger().findByRunKey(b.identity().runKey()).orElseThrow();
            assertThat(published.rowEncoding()).isEqualTo("postgres_copy_binary");
            assertThat(PhaseDetail.parse(published.detail()).text("publishedFingerprint")).startsWith("2000:rowdigest-v1:");
            h.target.execute("UPDATE public.items SET v = 'changed by an application' WHERE id = 1000");
            CampaignLease again = s.ledger().acquireLease(b.identity().runKey(), lease.owner(), CampaignHarness.FAST.leaseTtl()).orElseThrow();

            assertThatThrownBy(() -> s.publisher().rollback(again, b.artifacts(), "items", "bad data", false))
                    .isInstanceOf(PublishedTableWrittenException.class)
                    .hasMessageContaining("the same count, but at least 1 row was inserted, updated or deleted");

            h.target.execute("UPDATE public.items SET v = 'v1000' WHERE id = 1000");
            RollbackReceipt receipt = s.publisher().rollback(again, b.artifacts(), "items", "bad data", false);
            assertThat(receipt.acceptedWrites()).as("the rows are those published again: nothing to accept").isNull();
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).as("the previous (empty) table is live").isZero();
        }
    }

    @Test
    void rowsThatTravelledAsTextAreFingerprintedByTheTargetsOwnHash() throws Exception {
        h.source.execute("CREATE TABLE public.items (id integer PRIMARY KEY, v text)",
                "INSERT INTO public.items SELECT i, 'v' || i FROM generate_series(1, 500) i");
        h.target.execute("CREATE TABLE public.items (id bigint PRIMARY KEY, v text)");
        CampaignBlueprint b = campaign("items_text_fp", "items", "{column: id, kind: integer, buckets: 4, lowerBound: 1, upperBound: 501}");
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = open(s, b, null);
            assertThat(h.runToSettled(b, s, lease).phase()).isEqualTo(CampaignPhase.HandoffCommitted);
            CampaignRecord published = s.ledger().findByRunKey(b.identity().runKey()).orElseThrow();
            assertThat(published.rowEncoding()).isEqualTo("postgres_copy_text");
            assertThat(PhaseDetail.parse(published.detail()).text("publishedFingerprint")).matches("500:-?[0-9]+");
        }
    }

    @Test
    void theBaselineRecordedAtPreparationHoldsTheLiveShapeAndContent() throws Exception {
        itemsSource(100);
        h.target.execute("CREATE TABLE public.items (id bigint PRIMARY KEY, v text)");
        CampaignBlueprint b = campaign("items_base", "items", "{column: id, kind: integer, buckets: 2, lowerBound: 1, upperBound: 101}");
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = open(s, b, null);
            CampaignHarness.stepUntil(s, lease, CampaignPhase.Prepared);
            CampaignRecord prepared = s.ledger().findByRunKey(b.identity().runKey()).orElseThrow();
            assertThat(prepared.liveBaseline()).contains("\"fingerprint\":\"0:0\"").contains("items_pkey");
        }
    }

    private void itemsSource(int rows) throws SQLException {
        h.source.execute("CREATE TABLE public.items (id bigint PRIMARY KEY, v text)",
                "INSERT INTO public.items SELECT i, 'v' || i FROM generate_series(1, " + rows + ") i");
    }
}

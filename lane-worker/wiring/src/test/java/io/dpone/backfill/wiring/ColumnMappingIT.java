package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.engine.BlockReason;
import io.dpone.backfill.core.engine.PhaseDetail;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.verify.Verification;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Column mapping on a real PostgreSQL (issue 27): a source in snake_case loads a target whose columns follow another
 * convention (PascalCase, one column renamed by an explicit pair, one widened), through lanes, the read-back gate,
 * publication and {@code verify}; a mapping that does not fit the tables is refused by doctor and by preparation,
 * naming the field.
 */
class ColumnMappingIT {
    private static final String SOURCE = """
            CREATE TABLE public.albums (album_id bigint PRIMARY KEY, title text NOT NULL, artist_id integer,
              unit_price numeric(10,2), released date)""";
    private static final String ROWS = """
            INSERT INTO public.albums SELECT i, 'Album ' || i, i % 50, (i % 100) + 0.99,
              date '1970-01-01' + i FROM generate_series(1, 2000) i""";
    /** The target's own naming: PascalCase, price renamed, artist widened to bigint (the text route). */
    private static final String TARGET = """
            CREATE TABLE public.albums ("AlbumId" bigint PRIMARY KEY, "Title" text NOT NULL, "ArtistId" bigint,
              "Price" numeric(10,2), "Released" date)""";
    private static final String MAPPING = "  columns:\n    naming: snake-to-pascal\n    map: {unit_price: Price}\n";
    private static final String KEY_CHUNKS = "{column: album_id, kind: integer, buckets: 4, lowerBound: 1, upperBound: 2000}";

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
    void aSnakeCaseSourceLoadsAPascalCaseTargetAndPublishesEqualRowsThatVerify() throws Exception {
        publishes("albums_pascal", KEY_CHUNKS);
    }

    @Test
    void physicalChunksLoadThroughTheMappingToo() throws Exception {
        publishes("albums_physical", CampaignYaml.physicalChunks(3));
    }

    @Test
    void aPairNamingAColumnNeitherTableHasIsRefusedByDoctorAndByPreparation() throws Exception {
        h.source.execute(SOURCE, ROWS);
        h.target.execute(TARGET);
        CampaignBlueprint b = campaign("albums_bad", KEY_CHUNKS,
                "  columns:\n    naming: snake-to-pascal\n    map: {unit_price: Cost}\n");
        try (CampaignRuntime s = h.session(b)) {
            assertThatThrownBy(() -> s.engine().open(s.preflight(b, null)))
                    .isInstanceOfSatisfying(PreflightRefusedException.class, e -> assertThat(e.result().errors())
                            .anySatisfy(f -> {
                                assertThat(f.code()).isEqualTo("target.column.mapping");
                                assertThat(f.message()).isEqualTo("spec.columns.map.unit_price: the target table has no column Cost");
                            }));
            s.engine().open(s.preflight(b, "the test"));
            CampaignLease lease = s.ledger().acquireLease(b.identity().runKey(), "driver", CampaignHarness.FAST.leaseTtl()).orElseThrow();
            StepResult r = h.runToSettled(b, s, lease);
            assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
            assertThat(r.blockReason()).isEqualTo(BlockReason.TARGET_COLUMNS_MISSING);
            assertThat(r.message()).contains("spec.columns.map.unit_price: the target table has no column Cost");
        }
        assertThat(h.target.queryForLong("SELECT count(*) FROM pg_class WHERE relname LIKE 'albums__bf%'"))
                .as("no shadow was created").isZero();
    }

    /**
     * Issue 38 through the mapping: a reconciliation pass writes the source's changes, inserts and deletes into the
     * PascalCase table by its own names (key, chunk column, a widened column), rows beyond the plan's bounds
     * included, and queues the row someone edited by hand after publication.
     */
    @Test
    void aReconciliationPassWritesThroughTheMappingAndQueuesTheRowEditedByHand() throws Exception {
        publishes("albums_reconcile", KEY_CHUNKS); // ends with AlbumId 7's title changed by hand
        h.source.execute("UPDATE public.albums SET title = title || ' (remastered)', artist_id = artist_id + 1000 WHERE album_id % 10 = 0",
                "DELETE FROM public.albums WHERE album_id % 13 = 0",
                "INSERT INTO public.albums SELECT i, 'New ' || i, 1, 9.99, date '2020-01-01' FROM generate_series(2001, 2050) i");
        CampaignBlueprint b = campaign("albums_reconcile", KEY_CHUNKS, MAPPING);
        String runKey = b.identity().runKey();
        try (CampaignRuntime s = h.session(b); Connection source = h.source.connect(); Connection target = h.target.connect()) {
            io.dpone.backfill.core.reconcile.ReconcileLedger passes = Connectors.target(b.definition().spec().getTarget().getType())
                    .reconcileLedger(target, b.definition().spec().getState().getSchema());
            passes.ensureSchema();
            // The publishing driver's lease runs out first (it is not released in publishes).
            java.util.Optional<CampaignLease> taken = java.util.Optional.empty();
            for (int i = 0; i < 100 && taken.isEmpty(); i++) {
                taken = s.ledger().acquireLease(runKey, "reconcile", CampaignHarness.FAST.leaseTtl());
                if (taken.isEmpty()) {
                    Thread.sleep(100);
                }
            }
            CampaignLease lease = taken.orElseThrow();
            io.dpone.backfill.core.reconcile.PassRecord pass = CampaignReconciliation.run(b, s.ledger(), passes, source, target,
                    lease, CampaignHarness.FAST.leaseTtl(), io.dpone.backfill.core.fault.FaultPoints.NONE, line -> { });
            assertThat(pass.finished()).isTrue();
            assertThat(pass.totals().deleted()).isEqualTo(2000 / 13);
            assertThat(passes.queue(runKey, 10)).extracting(io.dpone.backfill.core.reconcile.QueuedKey::key).containsExactly("(7)");
        }
        String published = "SELECT \"AlbumId\" || '|' || \"Title\" || '|' || \"ArtistId\" || '|' || \"Price\" || '|' || \"Released\""
                + " FROM public.albums WHERE \"AlbumId\" <> 7 ORDER BY \"AlbumId\"";
        String read = "SELECT album_id || '|' || title || '|' || artist_id || '|' || unit_price || '|' || released"
                + " FROM public.albums WHERE album_id <> 7 ORDER BY album_id";
        assertThat(h.target.queryForStrings(published)).isEqualTo(h.source.queryForStrings(read));
        assertThat(h.target.queryForStrings("SELECT \"Title\" FROM public.albums WHERE \"AlbumId\" = 7")).containsExactly("changed");
    }

    private void publishes(String backfillId, String chunks) throws Exception {
        h.source.execute(SOURCE, ROWS);
        h.target.execute(TARGET);
        CampaignBlueprint b = campaign(backfillId, chunks, MAPPING);
        try (CampaignRuntime s = h.session(b)) {
            List<Finding> findings = s.preflight(b, null).run().report().findings();
            assertThat(findings).anySatisfy(f -> {
                assertThat(f.code()).isEqualTo("target.columns.mapped");
                assertThat(f.message()).contains("album_id -> AlbumId").contains("unit_price -> Price");
            });
            StepResult r = h.runToSettled(b, s, CampaignHarness.openAndLease(s, b));
            assertThat(r.phase()).as(r.message() + " " + h.laneLog).isEqualTo(CampaignPhase.HandoffCommitted);
            PhaseDetail detail = PhaseDetail.parse(s.ledger().findByRunKey(b.identity().runKey()).orElseThrow().detail());
            assertThat(detail.contentCheck().check()).isEqualTo("content");
            assertThat(detail.contentCheck().passed()).isTrue();
        }
        assertThat(h.target.queryForStrings("SELECT \"AlbumId\" || '|' || \"Title\" || '|' || \"ArtistId\" || '|' || \"Price\""
                + " || '|' || \"Released\" FROM public.albums ORDER BY 1"))
                .isEqualTo(h.source.queryForStrings("SELECT album_id || '|' || title || '|' || artist_id || '|' || unit_price"
                        + " || '|' || released FROM public.albums ORDER BY 1"));
        try (CampaignRuntime s = h.session(b); Connection source = h.source.connect(); Connection target = h.target.connect()) {
            Verification v = CampaignVerifier.verify(b, s.ledger(), source, target, line -> { });
            assertThat(v.passed()).as("verify reads both sides through the mapping").isTrue();
        }
        h.target.execute("UPDATE public.albums SET \"Title\" = 'changed' WHERE \"AlbumId\" = 7");
        try (CampaignRuntime s = h.session(b); Connection source = h.source.connect(); Connection target = h.target.connect()) {
            assertThat(CampaignVerifier.verify(b, s.ledger(), source, target, line -> { }).passed())
                    .as("and still names a changed published value").isFalse();
        }
    }

    private static CampaignBlueprint campaign(String backfillId, String chunks, String columns) {
        return CampaignHarness.blueprint(CampaignHarness.campaign(backfillId, chunks,
                "  publication: {mode: shadow_swap}\n" + columns).table("albums").uniqueKey("album_id"));
    }
}

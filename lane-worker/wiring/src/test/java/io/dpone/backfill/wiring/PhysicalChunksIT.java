package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.PhaseDetail;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Physical chunks end to end on real PostgreSQL (ADR 0015), engine and lanes as the drivers run them: exactly once
 * while an application writes the source throughout loading, and the heap read about once.
 */
class PhysicalChunksIT {
    private static final String SHADOW = "  publication: {mode: shadow_swap}\n";
    private static final int ROWS = 60_000;

    private CampaignHarness h;

    @BeforeEach
    void setUp() {
        h = new CampaignHarness();
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    private static String createItems(String storage) {
        return ItemsTable.CREATE + " WITH (" + storage + ")";
    }

    private CampaignLease lease(CampaignRuntime s, CampaignBlueprint b) {
        return CampaignHarness.openAndLease(s, b);
    }

    /**
     * A writer updates (some rows move to other blocks, some stay HOT), deletes and inserts rows in random blocks
     * before the anchor, between every two chunks (from inside the lanes, after each chunk's read) and all along on
     * its own thread. After publication: no key twice, every row unchanged since the anchor present with its values,
     * nothing inserted after the anchor; after the incremental pass from the anchor, the published table equals the
     * source.
     */
    @ParameterizedTest(name = "{0} chunks")
    @ValueSource(strings = {"physical", "uuid"})
    void rowsWrittenDuringLoadingAreNeverLoadedTwiceAndTheIncrementalPassFromTheAnchorClosesTheRest(String kind) throws Exception {
        boolean physical = kind.equals("physical");
        h.source.execute(createItems("fillfactor = 90"),
                "INSERT INTO public.items SELECT gen_random_uuid(), i, 'row ' || i FROM generate_series(1, " + ROWS + ") i");
        ItemsTable.createWithOldRow(h.target);
        // Key ranges read each row's latest version; block ranges only versions older than the anchor (ADR 0015).
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_writes_" + kind,
                physical ? CampaignYaml.physicalChunks(24) : CampaignYaml.uuidChunks(24), SHADOW));
        try (RandomBlockWriter writer = new RandomBlockWriter(h.source, 0x9a11L)) {
            AtomicInteger chunksRead = new AtomicInteger();
            AtomicReference<Exception> writerFailure = new AtomicReference<>();
            h.laneFaults = new FaultPoints() {
                @Override
                public void reached(FaultPoint point, int chunkId) {
                    if (point == FaultPoint.BEFORE_COMMIT) {
                        chunksRead.incrementAndGet();
                        try {
                            writer.batch(30);
                        } catch (SQLException e) {
                            writerFailure.set(e);
                        }
                    }
                }

                @Override
                public boolean armed(FaultPoint point) {
                    return false;
                }
            };
            AtomicBoolean writing = new AtomicBoolean(true);
            Thread background = new Thread(() -> {
                try {
                    while (writing.get()) {
                        writer.batch(10);
                    }
                } catch (SQLException e) {
                    writerFailure.set(e);
                }
            }, "source-writer");
            writer.batch(50);
            background.start();
            StepResult r;
            String anchor;
            try (CampaignRuntime s = h.session(b)) {
                r = h.runToSettled(b, s, lease(s, b));
                CampaignRecord c = s.ledger().findByRunKey(b.identity().runKey()).orElseThrow();
                anchor = c.anchorXmin();
                if (physical) {
                    HeapExtent heap = PhaseDetail.parse(c.detail()).heapExtent();
                    assertThat(heap).as("the plan's basis is in the ledger").isNotNull();
                    assertThat(heap.blocks()).isPositive();
                }
            } finally {
                writing.set(false);
                background.join();
            }
            System.out.printf("writer: %d batches, %d moved updates, %d same-block (%d HOT), %d deletes, %d inserts after"
                    + " the anchor; %d chunk reads with writes between%n", writer.batches(), writer.movedUpdates(),
                    writer.sameBlockUpdates(), writer.hotUpdates(), writer.deletes(), writer.insertedFrom(new BigInteger(anchor)).size(),
                    chunksRead.get());
            assertThat(writerFailure.get()).as("the writer ran without error").isNull();
            assertThat(r.phase()).as(h.laneLog.toString()).isEqualTo(CampaignPhase.HandoffCommitted);
            assertThat(chunksRead.get()).as("writes between chunk reads, once per chunk").isGreaterThanOrEqualTo(24);
            assertThat(writer.movedUpdates()).as("updates that moved rows to another block").isPositive();
            assertThat(writer.hotUpdates()).as("HOT updates").isPositive();
            assertThat(writer.deletes()).isPositive();
            assertThat(h.source.queryForLong("SELECT count(*) FROM public.items WHERE xmin::text::bigint >= " + anchor))
                    .as("versions written after the anchor exist in the source").isPositive();

            List<String> published = ItemsTable.rows(h.target);
            assertThat(h.target.queryForLong("SELECT count(*) - count(DISTINCT id) FROM public.items")).as("duplicate keys").isZero();
            assertThat(published).as("every row unchanged since the anchor, with its values")
                    .containsAll(h.source.queryForStrings("SELECT id::text || '|' || qty || '|' || quote_nullable(note)"
                            + " FROM public.items WHERE xmin::text::bigint < " + anchor));
            if (physical) {
                Set<String> publishedKeys = new HashSet<>(ItemsTable.keys(h.target));
                assertThat(writer.insertedFrom(new BigInteger(anchor)).stream().map(UUID::toString).filter(publishedKeys::contains))
                        .as("rows inserted after the anchor are the incremental pass's").isEmpty();
            }
            assertThat(h.target.queryForLong("SELECT sum(rows_loaded) FROM backfill_state.chunk_receipt"))
                    .as("the published table holds exactly what the receipts say").isEqualTo(published.size());

            assertThat(IncrementalMergeFromAnchor.apply(h.source, h.target, anchor)).isPositive();
            assertThat(ItemsTable.rows(h.target)).as("published + incremental pass = source").isEqualTo(ItemsTable.rows(h.source));
        }
    }

    /**
     * Heap pages visited on the source ({@code pg_statio_user_tables}) by a whole campaign, physical against uuid on
     * the same rows: a count, not a timing. Physical reads each page about once; uuid ranges of random keys read
     * nearly every page per chunk.
     */
    @Test
    void aPhysicalCampaignVisitsTheSourceHeapAboutOnceWhereUuidChunksVisitItPerChunk() throws Exception {
        double physical = pagesVisitedPerTablePage(CampaignYaml.physicalChunks(16), "items_pages_physical");
        double uuid = pagesVisitedPerTablePage(CampaignYaml.uuidChunks(16), "items_pages_uuid");
        System.out.printf("heap pages visited / table pages: physical %.3f, uuid %.3f (16 chunks, %d rows)%n", physical, uuid, ROWS);
        assertThat(physical).isLessThanOrEqualTo(1.2);
        assertThat(uuid).as("the comparison shows what physical saves").isGreaterThan(physical);
    }

    private double pagesVisitedPerTablePage(String chunk, String backfillId) throws Exception {
        try (CampaignHarness run = new CampaignHarness()) {
            // The same rows in both runs; autovacuum off so no background ANALYZE reads the heap during the count.
            run.source.execute(createItems("autovacuum_enabled = false"),
                    "INSERT INTO public.items SELECT md5(i::text)::uuid, i, 'row ' || i FROM generate_series(1, " + ROWS + ") i",
                    "VACUUM ANALYZE public.items");
            ItemsTable.createWithOldRow(run.target);
            long pages = run.source.queryForLong("SELECT relpages FROM pg_class WHERE relname = 'items'");
            long before = heapPagesVisited(run.source);
            CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign(backfillId, chunk, SHADOW));
            try (CampaignRuntime s = run.session(b)) {
                assertThat(run.runToSettled(b, s, CampaignHarness.openAndLease(s, b)).phase()).as(run.laneLog.toString()).isEqualTo(CampaignPhase.HandoffCommitted);
            }
            // Counted before the comparison below, whose ORDER BY id reads the heap once per row through the index.
            double visited = (double) (heapPagesVisited(run.source) - before) / pages;
            assertThat(ItemsTable.rows(run.target)).isEqualTo(ItemsTable.rows(run.source));
            return visited;
        }
    }

    /**
     * Heap blocks hit or read for {@code items} once every other session of the database has ended: a backend
     * flushes its counters before it leaves pg_stat_activity, so the count is complete, whatever the timing.
     */
    private static long heapPagesVisited(PostgresDatabase db) throws Exception {
        for (int i = 0; db.queryForLong("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND pid <> pg_backend_pid()") > 0; i++) {
            assertThat(i).as("sessions of " + db + " still open").isLessThan(500);
            Thread.sleep(20);
        }
        return db.queryForLong("SELECT heap_blks_hit + heap_blks_read FROM pg_statio_user_tables WHERE relname = 'items'");
    }
}

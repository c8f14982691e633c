package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.ChunkSpec;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.source.SourceReadCost;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The predicted source reads against the heap pages the lanes' own reader really visits (issue 41, ADR 0055): uuid,
 * integer and physical chunks, on tables written in key order and in random order, each within 25%.
 */
class PostgresReadCostIT {
    private static final int ROWS = 100_000;
    private static final int CHUNKS = 64;
    private static final List<String> COLUMNS = List.of("id", "n", "note");
    private static PostgresDatabase db;

    @BeforeAll
    static void tables() throws Exception {
        db = PostgresDatabase.fresh("read_cost");
        // Rows inserted in key order, or in random key order; autovacuum kept out of the page counts.
        table("uuid_in_key_order", "uuid", "SELECT gen_random_uuid() AS k FROM generate_series(1, " + ROWS + ") ORDER BY 1");
        table("uuid_in_random_order", "uuid", "SELECT gen_random_uuid() AS k FROM generate_series(1, " + ROWS + ")");
        table("integer_in_key_order", "bigint", "SELECT i AS k FROM generate_series(1, " + ROWS + ") i ORDER BY 1");
        table("integer_in_random_order", "bigint", "SELECT i AS k FROM generate_series(1, " + ROWS + ") i ORDER BY random()");
    }

    private static void table(String name, String keyType, String keys) throws Exception {
        db.execute("CREATE TABLE public." + name + " (id " + keyType + " NOT NULL PRIMARY KEY, n bigint NOT NULL, note text)"
                        + " WITH (autovacuum_enabled = false)",
                "INSERT INTO public." + name + " SELECT k, row_number() OVER (), 'row ' || md5(k::text) FROM (" + keys + ") s",
                "VACUUM (ANALYZE, FREEZE) public." + name);
    }

    /**
     * 64 chunks of about 1,600 rows get bitmap heap scans on random keys; 512 of about 200 rows, index scans; chunks
     * on {@code n}, which no index leads, a sequential scan each.
     */
    @ParameterizedTest(name = "{2} {0} chunks on {1}.{3}")
    @CsvSource({
            "uuid, uuid_in_key_order, 64, id", "uuid, uuid_in_random_order, 64, id", "uuid, uuid_in_random_order, 512, id",
            "integer, integer_in_key_order, 64, id", "integer, integer_in_random_order, 64, id",
            "integer, integer_in_key_order, 8, n",
            "physical, integer_in_key_order, 64, ", "physical, uuid_in_random_order, 64, "})
    void thePredictionIsWithinAQuarterOfTheHeapPagesTheChunksVisit(String kind, String table, int buckets, String column)
            throws Exception {
        ChunkPlan plan = plan(kind, buckets, column);
        SourceReadCost predicted;
        try (Connection c = db.connect()) {
            predicted = new PostgresSourceCatalog(c).readCost("public", table, plan);
        }
        ChunkPlan read = plan;
        HeapExtent heap = null;
        String anchor = null;
        if (plan.kind() == ChunkKind.PHYSICAL) {
            try (Connection c = db.connect()) {
                heap = PostgresHeapState.read(c, "public", table).orElseThrow().extent();
                anchor = new PostgresSourceCatalog(c).captureAnchor();
            }
            read = ChunkPlanner.physical(buckets, heap.blocks());
        }
        ChunkPlan chunks = read;
        HeapExtent extent = heap;
        String xmin = anchor;
        long measured = new HeapVisitMeter(db, table).visits(chunks.chunks(),
                session -> new PostgresChunkSource(session, chunks, "public", table, COLUMNS, extent, xmin));

        assertThat(predicted.known()).as(predicted.reason()).isTrue();
        System.out.printf("%d %s chunks on %s: predicted %d, measured %d heap page visits (%s)%n", buckets, kind, table,
                predicted.pagesVisited(), measured, predicted.describe());
        assertThat((double) predicted.pagesVisited()).as(predicted.describe() + "; measured " + measured)
                .isCloseTo(measured, within(0.25 * measured));
    }

    @Test
    void randomKeysAreReadAboutOncePerChunkAndPhysicalChunksReadTheTableOnce() throws Exception {
        try (Connection c = db.connect()) {
            PostgresSourceCatalog catalog = new PostgresSourceCatalog(c);
            SourceReadCost uuid = catalog.readCost("public", "uuid_in_random_order", plan("uuid"));
            SourceReadCost ordered = catalog.readCost("public", "integer_in_key_order", plan("integer"));
            SourceReadCost physical = catalog.readCost("public", "uuid_in_random_order", plan("physical"));

            assertThat(uuid.factor()).isGreaterThan(CHUNKS / 2.0);
            assertThat(uuid.reason()).contains("uuid keys of id lie in random order in the heap (pg_stats correlation");
            assertThat(ordered.factor()).isBetween(1.0, 1.2);
            assertThat(ordered.reason()).contains("follow the heap order");
            assertThat(physical.factor()).isEqualTo(1.0);
            assertThat(physical.reason()).contains("each chunk reads its own block range once").contains("Tid Range Scan 8");
        }
    }

    @Test
    void aTableNeverAnalyzedHasNoPredictionAndSaysWhy() throws Exception {
        db.execute("CREATE TABLE public.fresh (id uuid NOT NULL PRIMARY KEY) WITH (autovacuum_enabled = false)");
        try (Connection c = db.connect()) {
            SourceReadCost cost = new PostgresSourceCatalog(c).readCost("public", "fresh", plan("uuid"));

            assertThat(cost.known()).isFalse();
            assertThat(cost.describe()).isEqualTo("not estimated: PostgreSQL has no statistics of id in public.fresh"
                    + " (run ANALYZE public.fresh)");
        }
    }

    private static ChunkPlan plan(String kind) {
        return plan(kind, CHUNKS, kind.equals("physical") ? null : "id");
    }

    private static ChunkPlan plan(String kind, int buckets, String column) {
        ChunkSpec spec = new ChunkSpec();
        spec.setKind(ChunkKind.valueOf(kind.toUpperCase(java.util.Locale.ROOT)));
        spec.setBuckets(buckets);
        spec.setColumn(column);
        if (kind.equals("integer")) {
            spec.setLowerBound(1L);
            spec.setUpperBound((long) ROWS);
        }
        return ChunkPlanner.plan(spec);
    }
}

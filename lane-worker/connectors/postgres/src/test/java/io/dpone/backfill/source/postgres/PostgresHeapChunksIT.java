package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Severity;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.source.HeapExtentRefusedException;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Physical chunks on a real PostgreSQL 17 source (ADR 0015): the chunk query is a TID range scan; block ranges read
 * every row once; versions written at or after the anchor are left out; a rewritten table, a partitioned table and
 * an inheritance parent are refused, naming why.
 */
class PostgresHeapChunksIT {
    private static final String ITEMS = "CREATE TABLE public.items (id uuid NOT NULL PRIMARY KEY, qty integer NOT NULL, note text)";
    private static final int ROWS = 20_000;

    private PostgresDatabase db;
    private Connection source;

    @BeforeEach
    void setUp() throws Exception {
        db = PostgresDatabase.fresh("heap");
        db.execute(ITEMS, "INSERT INTO public.items SELECT gen_random_uuid(), i, 'row ' || i FROM generate_series(1, " + ROWS + ") i",
                "ANALYZE public.items");
        source = db.connect();
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
    }

    private PostgresSourceCatalog catalog() {
        return new PostgresSourceCatalog(source);
    }

    private PostgresChunkSource chunkSource(ChunkPlan plan, HeapExtent heap, String anchor) {
        return new PostgresChunkSource(source, plan, "public", "items", List.of("id", "qty", "note"), heap, anchor);
    }

    /** Every row of one chunk, as the COPY text a PostgreSQL sink receives. */
    private static List<String> read(PostgresChunkSource chunks, ChunkRange range) throws Exception {
        List<String> rows = new ArrayList<>();
        try (ChunkRows r = chunks.open(range, RowEncoding.POSTGRES_COPY_TEXT)) {
            while (r.next()) {
                rows.add(new String(r.copyBytes(), java.nio.charset.StandardCharsets.UTF_8).strip());
            }
        }
        return rows;
    }

    private static List<String> readAll(PostgresChunkSource chunks, ChunkPlan plan) throws Exception {
        List<String> rows = new ArrayList<>();
        for (ChunkRange range : plan.chunks()) {
            rows.addAll(read(chunks, range));
        }
        return rows;
    }

    @Test
    void aChunkQueryIsATidRangeScanForTheFirstMiddleAndOpenEndedLastRange() throws Exception {
        HeapExtent heap = catalog().heapExtent("public", "items");
        BigInteger anchor = new BigInteger(catalog().captureAnchor());
        ChunkPlan plan = ChunkPlanner.physical(8, heap.blocks());
        for (int id : new int[]{0, 3, 7}) {
            String explain = String.join("\n", db.queryForStrings("EXPLAIN SELECT id, qty, note FROM public.items WHERE "
                    + PostgresHeapPredicate.render(plan.chunk(id), anchor)));
            assertThat(explain).as("chunk " + id).startsWith("Tid Range Scan on items")
                    .contains("Filter: (((xmin)::text)::bigint < ");
        }
    }

    @Test
    void blockRangesReadEveryRowExactlyOnceForRandomPlans() throws Exception {
        HeapExtent heap = catalog().heapExtent("public", "items");
        assertThat(heap.blocks()).isEqualTo(db.queryForLong("SELECT relpages FROM pg_class WHERE relname = 'items'"));
        String anchor = catalog().captureAnchor();
        Set<String> expected = new HashSet<>(db.queryForStrings("SELECT id || E'\\t' || qty || E'\\t' || note FROM public.items"));
        Random random = new Random(0xb10cL);
        for (int buckets : new int[]{1, 2, 7, (int) heap.blocks(), (int) heap.blocks() + 5, 1 + random.nextInt(300)}) {
            ChunkPlan plan = ChunkPlanner.physical(buckets, heap.blocks());
            List<String> rows = readAll(chunkSource(plan, heap, anchor), plan);
            assertThat(rows).as(buckets + " buckets: no row twice").doesNotHaveDuplicates();
            assertThat(new HashSet<>(rows)).as(buckets + " buckets: every row with its values").isEqualTo(expected);
        }
    }

    @Test
    void versionsWrittenAtOrAfterTheAnchorAreLeftToTheIncrementalPass() throws Exception {
        HeapExtent heap = catalog().heapExtent("public", "items");
        String anchor = catalog().captureAnchor();
        ChunkPlan plan = ChunkPlanner.physical(6, heap.blocks());
        // After the anchor: a HOT update (same page), updates that move rows to the end, deletes, inserts, and an
        // aborted insert; then rows an aborted update left alone.
        db.execute("UPDATE public.items SET note = 'hot' WHERE qty <= 50",
                "UPDATE public.items SET note = repeat('moved', 200) WHERE qty BETWEEN 100 AND 150",
                "DELETE FROM public.items WHERE qty BETWEEN 200 AND 219",
                "INSERT INTO public.items SELECT gen_random_uuid(), -i, 'new' FROM generate_series(1, 500) i",
                "BEGIN; UPDATE public.items SET note = 'aborted' WHERE qty BETWEEN 300 AND 309; ROLLBACK");
        List<String> rows = readAll(chunkSource(plan, heap, anchor), plan);
        Set<Integer> quantities = rows.stream().map(r -> Integer.parseInt(r.split("\t")[1])).collect(Collectors.toSet());

        assertThat(rows).doesNotHaveDuplicates().hasSize(ROWS - 50 - 51 - 20);
        assertThat(quantities).as("updated and deleted rows are absent, inserted ones too")
                .doesNotContain(1, 50, 100, 150, 200, 219, -1).contains(51, 99, 151, 220, 300, 309, ROWS);
        assertThat(rows).as("an aborted update leaves the pre-anchor version").noneMatch(r -> r.endsWith("aborted"));
    }

    @Test
    void aTableRewrittenAfterPreparationFailsTheNextChunkNamingTheRewrite() throws Exception {
        HeapExtent heap = catalog().heapExtent("public", "items");
        String anchor = catalog().captureAnchor();
        ChunkPlan plan = ChunkPlanner.physical(4, heap.blocks());
        PostgresChunkSource chunks = chunkSource(plan, heap, anchor);
        assertThat(read(chunks, plan.chunk(0))).isNotEmpty();

        db.execute("VACUUM FULL public.items");

        assertThatThrownBy(() -> read(chunks, plan.chunk(1))).isInstanceOf(HeapExtentRefusedException.class)
                .hasMessageContaining("rewritten since preparation").hasMessageContaining(heap.storage());
        assertThat(source.getAutoCommit()).as("the lane's connection is left as it was").isTrue();
        assertThat(catalog().heapExtent("public", "items").storage()).isNotEqualTo(heap.storage());
    }

    @Test
    void partitionedTablesAndInheritanceParentsAreRefusedButAPartitionIsATable() throws Exception {
        db.execute("CREATE TABLE public.parted (id int NOT NULL) PARTITION BY RANGE (id)",
                "CREATE TABLE public.parted_1 PARTITION OF public.parted FOR VALUES FROM (0) TO (100)",
                "CREATE TABLE public.parent (id int NOT NULL)",
                "CREATE TABLE public.child () INHERITS (public.parent)");
        assertThatThrownBy(() -> catalog().heapExtent("public", "parted")).isInstanceOf(HeapExtentRefusedException.class)
                .hasMessageContaining("relkind 'p'");
        assertThatThrownBy(() -> catalog().heapExtent("public", "parent")).isInstanceOf(HeapExtentRefusedException.class)
                .hasMessageContaining("inheritance children");
        assertThat(catalog().heapExtent("public", "parted_1").blocks()).isZero();
    }

    @Test
    void doctorRefusesPhysicalOnAParentAndSaysNothingOfTheHeapForKeyRanges() throws Exception {
        db.execute("CREATE TABLE public.parent (id int NOT NULL)", "CREATE TABLE public.child () INHERITS (public.parent)");
        List<Finding> findings = new ArrayList<>();
        new PostgresDoctorHeap(source, findings).check("public", "parent", ChunkKind.PHYSICAL);
        new PostgresDoctorHeap(source, findings).check("public", "items", ChunkKind.PHYSICAL);
        new PostgresDoctorHeap(source, findings).check("public", "items", ChunkKind.UUID);

        assertThat(findings).extracting(Finding::severity, Finding::code).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Severity.ERROR, "source.physical.unsupported"),
                org.assertj.core.groups.Tuple.tuple(Severity.OK, "source.physical.ok"));
    }
}

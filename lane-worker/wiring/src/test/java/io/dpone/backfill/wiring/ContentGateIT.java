package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.SourceType;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.engine.BlockReason;
import io.dpone.backfill.core.engine.PhaseDetail;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.verify.ContentDifference;
import io.dpone.backfill.core.verify.ContentScope;
import io.dpone.backfill.core.verify.StoredContent;
import io.dpone.backfill.targets.postgres.PostgresPublishedDigests;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read-back gate before publication on PostgreSQL to PostgreSQL (ADR 0036), on real servers: a clean campaign
 * passes and records the check; one stored value changed in the shadow before validation blocks publication
 * ({@code ContentMismatch}) naming its chunk, key and column, with the live table untouched and the shadow kept, for
 * key-range and physical chunks; {@code publication.verify: counts} turns it off. Per route, every type pair the
 * target accepts is loaded with edge values: the check passes while the stored values are equal and finds each
 * column's changed value.
 */
class ContentGateIT {
    private static final String CHUNKS = "{column: id, kind: integer, buckets: 6, lowerBound: 1, upperBound: 3000}";
    private static final String SHADOW_SWAP = "  publication: {mode: shadow_swap}\n";
    private static final String ITEMS = "CREATE TABLE public.items (id bigint PRIMARY KEY, qty numeric(12,2), note text,"
            + " born date, at timestamptz)";
    private static final String ITEM_ROWS = "INSERT INTO public.items SELECT i, i * 1.25, 'row ' || i,"
            + " date '0001-01-01' + i * 1200, timestamptz '2024-01-01 00:00+00' + i * interval '1 minute'"
            + " FROM generate_series(1, 3000) i";
    private static final java.time.LocalDate BORN_1234 = java.time.LocalDate.of(1, 1, 1).plusDays(1234 * 1200);

    /** Identical built-in types (binary pass-through): each column with the change made to row 1234's value. */
    private static final String SAME_TYPES = """
            CREATE TABLE public.items (id bigint PRIMARY KEY, si smallint, i4 integer, bi bigint, n numeric(20,5),
              nn numeric, f float8, r real, b boolean, t text, vc varchar(20), c char(5), u uuid, d date, ts timestamp,
              tz timestamptz, tm time, tt timetz, iv interval, by bytea, j jsonb, js json, ia integer[], ip inet, m money)""";
    private static final String SAME_TYPE_ROWS = """
            INSERT INTO public.items SELECT i, (i % 32767)::smallint, i * 1000, i * 1000000000000, round((i * 1.23456)::numeric, 5),
              CASE i % 4 WHEN 0 THEN 'NaN'::numeric WHEN 1 THEN 'Infinity'::numeric WHEN 2 THEN '-Infinity'::numeric ELSE i * 1e-30 END,
              CASE i % 5 WHEN 0 THEN 'NaN'::float8 WHEN 1 THEN 'Infinity' WHEN 2 THEN '-0' ELSE i / 7.0 END, i / 3.0,
              i % 2 = 0, 'Grüße ✓ 🚀 ' || i || E'\\t tab \\n line', 'v' || i, 'c' || (i % 10), md5(i::text)::uuid,
              CASE WHEN i % 97 = 0 THEN 'infinity'::date ELSE date '0001-01-01' + i * 1200 END,
              timestamp '1999-12-31 23:59:59.999999' + i * interval '1 hour',
              CASE WHEN i % 89 = 0 THEN '-infinity'::timestamptz ELSE timestamptz '2024-03-31 01:30:00+02' + i * interval '1 minute' END,
              time '00:00:00' + i * interval '1 second', timetz '12:00:00+05:30', i * interval '1 day 2 hours 3.5 seconds',
              CASE WHEN i % 7 = 0 THEN NULL ELSE decode(lpad(to_hex(i), 8, '0') || '00ff', 'hex') END,
              jsonb_build_object('i', i, 'u', 'ü'), json_build_object('i', i), ARRAY[i, NULL, -i],
              ('10.0.' || (i % 255) || '.1/24')::inet, (i * 1.5)::money
            FROM generate_series(1, 3000) i""";
    /** The edges of each type, on rows 1 to 4. */
    private static final String[] SAME_TYPE_EDGES = {
            "UPDATE public.items SET si = -32768, i4 = -2147483648, bi = -9223372036854775808, d = '4713-01-01 BC',"
                    + " ts = '4713-01-01 00:00:00 BC', tz = '4713-01-01 00:00:00+00 BC', n = -999999999999999.99999 WHERE id = 1",
            "UPDATE public.items SET si = 32767, i4 = 2147483647, bi = 9223372036854775807, d = '5874897-12-31',"
                    + " ts = '294276-12-31 23:59:59.999999', tz = '294276-12-31 23:59:59.999999+00', tm = '24:00:00' WHERE id = 2",
            "UPDATE public.items SET d = '9999-12-31', ts = '9999-12-31 23:59:59.999999', t = '', vc = NULL, by = '\\x' WHERE id = 3",
            "UPDATE public.items SET f = '-Infinity', r = 'NaN', nn = 0.000000000000000000000000000001 WHERE id = 4"};
    private static final Map<String, String> SAME_TYPE_CHANGES = changes(
            "si", "si + 1", "i4", "i4 + 1", "bi", "bi + 1", "n", "n + 0.00001", "nn", "0", "f", "f + 1", "r", "r + 1",
            "b", "NOT b", "t", "t || 'x'", "vc", "'changed'", "c", "'zz'", "u", "'00000000-0000-0000-0000-000000000001'",
            "d", "d + 1", "ts", "ts + interval '1 microsecond'", "tz", "tz + interval '1 microsecond'",
            "tm", "tm + interval '1 second'", "tt", "'12:00:01+05:30'", "iv", "iv + interval '1 microsecond'",
            "by", "'\\x00'", "j", "'{\"i\": 0}'", "js", "'{\"i\": 0}'", "ia", "ARRAY[0]", "ip", "'10.9.9.9/24'",
            "m", "m + 1::money");

    /** Widening pairs the PostgreSQL target accepts (COPY text), source side; the target widens each. */
    private static final String WIDENED_SOURCE = """
            CREATE TABLE public.items (id bigint PRIMARY KEY, si smallint, i4 integer, bi bigint, r real, vc varchar(10),
              c char(3), n numeric(12,2), d date, tz timestamptz, u uuid, t text, by bytea, b boolean)""";
    private static final String WIDENED_TARGET = """
            CREATE TABLE public.items (id bigint PRIMARY KEY, si integer, i4 bigint, bi numeric(22,2), r double precision,
              vc text, c char(5), n numeric(20,6), d date, tz timestamptz, u uuid, t text, by bytea, b boolean)""";
    private static final String WIDENED_ROWS = """
            INSERT INTO public.items SELECT i, (i % 32767)::smallint, i * 1000, i * 1000000000000, i / 3.0, 'v' || i,
              'c' || (i % 10), i * 1.25, date '0001-01-01' + i * 1200,
              timestamptz '2024-03-31 01:30:00+02' + i * interval '1 minute', md5(i::text)::uuid, 'Grüße ' || i,
              decode(lpad(to_hex(i), 8, '0'), 'hex'), i % 2 = 0
            FROM generate_series(1, 3000) i""";
    private static final String[] WIDENED_EDGES = {
            "UPDATE public.items SET si = -32768, i4 = -2147483648, bi = -9223372036854775808, n = -9999999999.99,"
                    + " d = '4713-01-01 BC', r = '-Infinity' WHERE id = 1",
            "UPDATE public.items SET si = 32767, i4 = 2147483647, bi = 9223372036854775807, n = 9999999999.99,"
                    + " d = '9999-12-31', r = 3.4028235e38, c = 'abc' WHERE id = 2",
            "UPDATE public.items SET r = 1.17549435e-38, c = NULL, vc = '' WHERE id = 3"};
    private static final Map<String, String> WIDENED_CHANGES = changes(
            "si", "si + 1", "i4", "i4 + 1", "bi", "bi + 0.01", "r", "r + 0.5", "vc", "vc || 'x'", "c", "'zz'",
            "n", "n + 0.000001", "d", "d + 1", "tz", "tz + interval '1 microsecond'",
            "u", "'00000000-0000-0000-0000-000000000001'", "t", "t || 'x'", "by", "'\\x00'", "b", "NOT b");

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
    void aCleanCampaignPublishesAfterTheContentCheckAndRecordsIt() throws Exception {
        h.source.execute(ITEMS, ITEM_ROWS);
        h.target.execute(ITEMS);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("gate_clean", CHUNKS, SHADOW_SWAP));
        try (CampaignRuntime s = h.session(b)) {
            StepResult r = h.runToSettled(b, s, CampaignHarness.openAndLease(s, b));
            assertThat(r.phase()).as(r.message()).isEqualTo(CampaignPhase.HandoffCommitted);
            PhaseDetail.ContentCheckRecord check = detail(s, b).contentCheck();
            assertThat(check.check()).isEqualTo("content");
            assertThat(check.passed()).isTrue();
            assertThat(check.seconds()).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void aStoredValueChangedInTheShadowBlocksPublicationNamingItsChunkKeyAndColumn() throws Exception {
        StepResult r = loadTamperAndValidate("gate_tamper", CHUNKS, "");
        assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
        assertThat(r.blockReason()).isEqualTo(BlockReason.CONTENT_MISMATCH);
        // Key 1234 of 1..3000 in 6 buckets falls in chunk 2.
        assertThat(r.message()).contains("chunk 2: 500 rows, same keys, different values")
                .contains("key (id)=(1234), column born: read " + BORN_1234 + " from the source, stored as "
                        + BORN_1234.plusDays(1))
                .contains("the live table is untouched");
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).as("the live table").isZero();
    }

    @Test
    void physicalChunksCompareTheWholeStoredTableAndStillNameTheKeyAndColumn() throws Exception {
        StepResult r = loadTamperAndValidate("gate_physical", CampaignYaml.physicalChunks(4), "");
        assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
        assertThat(r.blockReason()).isEqualTo(BlockReason.CONTENT_MISMATCH);
        assertThat(r.message()).contains("the table: 3000 rows, same keys, different values")
                .contains("key (id)=(1234), column born");
    }

    @Test
    void verifyCountsTurnsTheContentCheckOffAndSaysSo() throws Exception {
        StepResult r = loadTamperAndValidate("gate_counts", CHUNKS, "  publication: {mode: shadow_swap, verify: counts}\n");
        assertThat(r.phase()).as(r.message()).isEqualTo(CampaignPhase.HandoffCommitted);
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.items WHERE born = date '" + BORN_1234.plusDays(1) + "'"))
                .as("the changed value was published, as asked").isEqualTo(1);
    }

    @Test
    void everyIdenticalTypePairPassesWhenStoredEqualAndEachChangedColumnIsNamed() throws Exception {
        everyPairOfTheRoute(SAME_TYPES, SAME_TYPES, SAME_TYPE_ROWS, SAME_TYPE_EDGES, SAME_TYPE_CHANGES,
                RowEncoding.POSTGRES_COPY_BINARY);
    }

    @Test
    void everyWideningPairPassesWhenStoredEqualAndEachChangedColumnIsNamed() throws Exception {
        everyPairOfTheRoute(WIDENED_SOURCE, WIDENED_TARGET, WIDENED_ROWS, WIDENED_EDGES, WIDENED_CHANGES,
                RowEncoding.POSTGRES_COPY_TEXT);
    }

    /** Loads to validation, changes row 1234's born date in the shadow, then lets the campaign go on. */
    private StepResult loadTamperAndValidate(String backfillId, String chunks, String publication) throws Exception {
        h.source.execute(ITEMS, ITEM_ROWS);
        h.target.execute(ITEMS);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign(backfillId, chunks,
                publication.isEmpty() ? SHADOW_SWAP : publication));
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = CampaignHarness.openAndLease(s, b);
            StepResult loaded = h.runUntil(b, s, lease, CampaignPhase.Validating);
            assertThat(loaded.phase()).as(loaded.message()).isEqualTo(CampaignPhase.Validating);
            h.target.execute("UPDATE " + shadow(b) + " SET born = born + 1 WHERE id = 1234");
            return h.runToSettled(b, s, lease);
        }
    }

    /**
     * One campaign of the route to validation; then the gate's own reads and comparison with the shadow as stored
     * (equal), and with each column of row 1234 changed in turn (then put back): the chunk and that column named.
     */
    private void everyPairOfTheRoute(String sourceDdl, String targetDdl, String rows, String[] edges,
                                     Map<String, String> changes, RowEncoding expected) throws Exception {
        h.source.execute(sourceDdl, rows);
        h.source.execute(edges);
        h.target.execute(targetDdl);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("gate_pairs", CHUNKS, SHADOW_SWAP));
        try (CampaignRuntime s = h.session(b); Connection source = h.source.connect(); Connection target = h.target.connect()) {
            CampaignLease lease = CampaignHarness.openAndLease(s, b);
            StepResult loaded = h.runUntil(b, s, lease, CampaignPhase.Validating);
            assertThat(loaded.phase()).as(loaded.message()).isEqualTo(CampaignPhase.Validating);
            CampaignRecord campaign = s.ledger().findByRunKey(b.identity().runKey()).orElseThrow();
            assertThat(campaign.rowEncoding()).isEqualTo(expected.wireName());
            ChunkPlan plan = ChunkPlanner.resolve(b.definition().spec().getChunk(), null);
            List<String> columns = new ArrayList<>(List.of("id"));
            columns.addAll(changes.keySet());
            ContentScope scope = new ContentScope(b.artifacts().schema(), b.loadTable(), columns, List.of("id"), plan,
                    expected, null, null);
            ShadowReadBack readBack = new ShadowReadBack(Connectors.target(b.definition().spec().getTarget().getType()),
                    items(source), target, h.targetConnector, 1);
            // The same shadow read in block-range parts on three sessions at once, as a large one is.
            ShadowReadBack inParts = new ShadowReadBack(Connectors.target(b.definition().spec().getTarget().getType()),
                    items(source), target, h.targetConnector, 3,
                    session -> new PostgresPublishedDigests(session, source, "public", "items").splittingEvery(2));
            ChunkDigest[] sent = sent(s, b, plan.size());

            assertThat(StoredContent.compare(true, sent, readBack.stored(scope)).matches())
                    .as("every stored value equals what was sent").isTrue();
            assertThat(StoredContent.compare(true, sent, inParts.stored(scope)).matches())
                    .as("read in parts, every stored value equals what was sent").isTrue();
            h.target.execute("CREATE TABLE public.kept AS SELECT * FROM " + shadow(b) + " WHERE id = 1234");
            for (Map.Entry<String, String> change : changes.entrySet()) {
                String column = change.getKey();
                h.target.execute("UPDATE " + shadow(b) + " SET " + column + " = " + change.getValue() + " WHERE id = 1234");
                StoredContent found = StoredContent.compare(true, sent, readBack.stored(scope));
                assertThat(found.mismatches()).as(column).extracting(StoredContent.Mismatch::chunkId).containsExactly(2);
                assertThat(StoredContent.compare(true, sent, inParts.stored(scope)).mismatches()).as(column + ", in parts")
                        .extracting(StoredContent.Mismatch::chunkId).containsExactly(2);
                ContentDifference first = readBack.firstDifference(scope, 2).orElseThrow();
                assertThat(first.key()).as(column).isEqualTo("(id)=(1234)");
                assertThat(first.column()).as(first.describe()).isEqualTo(column);
                h.target.execute("UPDATE " + shadow(b) + " s SET " + column + " = k." + column
                        + " FROM public.kept k WHERE s.id = k.id");
            }
            assertThat(StoredContent.compare(true, sent, readBack.stored(scope)).matches()).as("all put back").isTrue();
        }
    }

    private static ChunkDigest[] sent(CampaignRuntime s, CampaignBlueprint b, int chunks) {
        Map<Integer, String> recorded = s.ledger().chunkDigests(b.identity().runKey());
        ChunkDigest[] sent = new ChunkDigest[chunks];
        for (int id = 0; id < chunks; id++) {
            sent[id] = ChunkDigest.fromWire(recorded.get(id));
        }
        return sent;
    }

    private static PhaseDetail detail(CampaignRuntime s, CampaignBlueprint b) {
        return PhaseDetail.parse(s.ledger().findByRunKey(b.identity().runKey()).orElseThrow().detail());
    }

    private static String shadow(CampaignBlueprint b) {
        return b.artifacts().schema() + "." + b.loadTable();
    }

    private static Map<String, String> changes(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }

    /** The campaigns' source table public.items over {@code source}. */
    private static SourceTable items(Connection source) {
        return new SourceTable(Connectors.source(SourceType.POSTGRES), source, "public", "items");
    }
}

package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL to PostgreSQL, preparation chooses binary COPY pass-through exactly when every loaded column has the
 * identical built-in type on both sides, records it, and the lanes load value for value either way (ADR 0017).
 */
class BinaryPassThroughIT {
    private static final String CHUNKS = "{column: id, kind: integer, buckets: 6, lowerBound: 1, upperBound: 3000}";
    /** Built-in types with their edge values: every one must arrive exactly as the source renders it. */
    private static final String WIDE = """
            CREATE TABLE public.items (id bigint PRIMARY KEY, n numeric(20,5), nn numeric, f float8, r real, b boolean,
              t text, vc varchar(20), c char(5), u uuid, d date, ts timestamp, tz timestamptz, tm time, tt timetz,
              iv interval, by bytea, j jsonb, js json, ia integer[], ta text[], ip inet, m money, si smallint, bi bigint)""";
    private static final String ROWS = """
            INSERT INTO public.items SELECT i, round((i * 1.23456)::numeric, 5),
              CASE i % 4 WHEN 0 THEN 'NaN'::numeric WHEN 1 THEN 'Infinity'::numeric WHEN 2 THEN '-Infinity'::numeric ELSE i * 1e-30 END,
              CASE i % 5 WHEN 0 THEN 'NaN'::float8 WHEN 1 THEN 'Infinity' WHEN 2 THEN '-0' ELSE i / 7.0 END, i / 3.0,
              i % 2 = 0, 'Grüße ✓ 🚀 ' || i || E'\\t tab \\n line \\\\ back', 'v' || i, 'c' || (i % 10),
              md5(i::text)::uuid, CASE WHEN i % 97 = 0 THEN 'infinity'::date ELSE date '2000-01-01' + i END,
              timestamp '1999-12-31 23:59:59.999999' + i * interval '1 hour',
              CASE WHEN i % 89 = 0 THEN '-infinity'::timestamptz ELSE timestamptz '2024-03-31 01:30:00+02' + i * interval '1 minute' END,
              time '00:00:00' + i * interval '1 second', timetz '12:00:00+05:30', i * interval '1 day 2 hours 3.5 seconds',
              CASE WHEN i % 7 = 0 THEN NULL ELSE decode(lpad(to_hex(i), 8, '0') || '00ff', 'hex') END,
              jsonb_build_object('i', i, 'u', 'ü'), json_build_object('i', i), ARRAY[i, NULL, -i], ARRAY['a', NULL, 'b"c'],
              ('10.0.' || (i % 255) || '.1/24')::inet, (i * 1.5)::money, (i % 32767)::smallint, i * 1000000000000
            FROM generate_series(1, 3000) i""";
    private static final String RENDERED = "SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM public.items t";

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
    void identicalBuiltInTypesTravelAsBinaryTuplesValueForValue() throws Exception {
        h.source.execute(WIDE, ROWS);
        h.target.execute(WIDE);
        assertThat(run("wide_v1")).isEqualTo("postgres_copy_binary");
        assertLanesMoveRowsAs("postgres_copy_binary");
        assertThat(rendered(h.target)).isEqualTo(rendered(h.source));
        assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).isEqualTo(3000);
    }

    @Test
    void aDifferentTypeModifierSendsTextAndStillLoadsEveryValue() throws Exception {
        h.source.execute(WIDE, ROWS);
        h.target.execute(WIDE.replace("vc varchar(20)", "vc varchar(30)"));
        assertThat(run("typmod_v1")).isEqualTo("postgres_copy_text");
        assertLanesMoveRowsAs("postgres_copy_text");
        assertThat(rendered(h.target)).isEqualTo(rendered(h.source));
    }

    @Test
    void aUserTypeSendsTextAndATableWithUserTypesStillPublishes() throws Exception {
        String type = "CREATE TYPE public.mood AS ENUM ('sad', 'ok', 'happy')";
        String table = "CREATE TABLE public.items (id bigint PRIMARY KEY, m public.mood, ms public.mood[])";
        h.source.execute(type, table, "INSERT INTO public.items SELECT i, (ARRAY['sad','ok','happy']::public.mood[])[1 + i % 3],"
                + " ARRAY['ok', 'happy']::public.mood[] FROM generate_series(1, 3000) i");
        // Created in another order on the target: the same labels, other OIDs. Publication compares shapes read
        // with and without a pinned search_path ("mood" vs "public.mood" before the catalog pinned it).
        h.target.execute("CREATE TYPE public.unrelated AS ENUM ('x')", type, table);
        assertThat(run("enum_v1")).isEqualTo("postgres_copy_text");
        assertThat(rendered(h.target)).isEqualTo(rendered(h.source));
    }

    /** Runs the campaign to its handoff; returns the row encoding its ledger recorded. */
    private String run(String backfillId) throws Exception {
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign(backfillId, CHUNKS, "  publication: {mode: shadow_swap}\n")
                .uniqueKey("id"));
        try (CampaignRuntime s = h.session(b)) {
            s.engine().open(s.preflight(b, null));
            CampaignLease lease = s.ledger().acquireLease(b.identity().runKey(), "driver", CampaignHarness.FAST.leaseTtl()).orElseThrow();
            StepResult r = h.runToSettled(b, s, lease);
            assertThat(r.phase()).as(r + " " + h.laneLog).isEqualTo(CampaignPhase.HandoffCommitted);
            return s.ledger().findByRunKey(b.identity().runKey()).orElseThrow().rowEncoding();
        }
    }

    /** Every lane moved rows the way the ledger records (and at least one lane ran). */
    private void assertLanesMoveRowsAs(String encoding) {
        assertThat(h.laneLog).as("lanes move rows the way the ledger records")
                .anyMatch(line -> line.endsWith(": rows move as " + encoding))
                .noneMatch(line -> line.contains(": rows move as ") && !line.endsWith(": rows move as " + encoding));
    }

    private static String rendered(PostgresDatabase db) throws Exception {
        return db.queryForStrings(RENDERED).get(0);
    }
}

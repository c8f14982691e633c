package io.dpone.backfill.source.postgres.digest;

import io.dpone.backfill.source.TypeFamily;
import io.dpone.backfill.source.postgres.binary.TypeFamilies;
import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.source.postgres.PostgresChunkSource;
import io.dpone.backfill.source.postgres.binary.PlannedColumn;
import io.dpone.backfill.source.postgres.binary.SourceColumnPlanner;
import io.dpone.backfill.targets.mssql.MssqlPublishedRead;
import io.dpone.backfill.targets.postgres.PostgresPublishedDigests;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The canonical encoding on a real PostgreSQL (ADR 0018): every type family digests the same from binary COPY field
 * bytes, from COPY text, from the binary decoder's values and from JDBC values, with the edge values (NaN,
 * infinities, -0, NULL, tabs and newlines in text, non-BMP characters, BC dates, offsets) included where that wire
 * can carry them; a type changed on the target side (int4 to int8, numeric scale, varchar length) digests the same.
 */
class CanonicalEncodingIT {
    private static final String FAMILIES = """
            CREATE TABLE public.items (id bigint PRIMARY KEY, n numeric(20,5), nn numeric, f float8, r real, b boolean,
              t text, vc varchar(20), c char(5), u uuid, d date, ts timestamp, tz timestamptz, tm time, by bytea,
              j jsonb, js json, si smallint, i4 integer, mood public.mood, op interval)""";
    /** Rows 1..1000 hold only values a JDBC value (and SQL Server) can hold; 1001..2000 add the specials. */
    private static final String ROWS = """
            INSERT INTO public.items SELECT i, round((i * 1.23456)::numeric, 5),
              CASE WHEN i <= 1000 THEN i * 1e-30 WHEN i % 3 = 0 THEN 'NaN'::numeric WHEN i % 3 = 1 THEN 'Infinity' ELSE '-Infinity' END,
              CASE WHEN i % 5 = 2 THEN '-0'::float8 WHEN i > 1000 AND i % 5 = 0 THEN 'NaN' WHEN i > 1000 AND i % 5 = 1 THEN '-Infinity' ELSE i / 7.0 END,
              i / 3.0, CASE WHEN i % 11 = 0 THEN NULL ELSE i % 2 = 0 END,
              'Grüße ✓ 🚀 ' || i || E'\\t tab \\n line \\\\ back \\r', 'v' || i, 'c' || (i % 10),
              md5(i::text)::uuid,
              CASE WHEN i > 1000 AND i % 97 = 0 THEN 'infinity'::date WHEN i % 13 = 0 THEN date '0044-03-15 BC' ELSE date '2000-01-01' + i END,
              timestamp '1999-12-31 23:59:59.999999' + i * interval '1 hour',
              CASE WHEN i > 1000 AND i % 89 = 0 THEN '-infinity'::timestamptz ELSE timestamptz '2024-03-31 01:30:00.25+05:30' + i * interval '1 minute' END,
              CASE WHEN i > 1000 AND i % 83 = 0 THEN time '24:00:00' ELSE time '00:00:00' + i * interval '1.5 second' END,
              CASE WHEN i % 7 = 0 THEN NULL ELSE decode(lpad(to_hex(i), 8, '0') || '00ff5c09', 'hex') END,
              jsonb_build_object('i', i, 'u', 'ü'), json_build_object('i', i), (i % 32767)::smallint, i * 1000,
              (ARRAY['sad','ok','happy']::public.mood[])[1 + i % 3], i * interval '1 day 2 hours'
            FROM generate_series(1, 2000) i""";
    private static final List<String> COLUMNS = List.of("id", "n", "nn", "f", "r", "b", "t", "vc", "c", "u", "d", "ts", "tz",
            "tm", "by", "j", "js", "si", "i4", "mood", "op");
    /** Every column of a type family (interval is opaque: equal only on the same wire). */
    private static final List<String> FAMILY_COLUMNS = COLUMNS.subList(0, COLUMNS.size() - 1);
    private static final ChunkPlan PLAN = new ChunkPlan(ChunkKind.INTEGER, "id", 1L, 2000L,
            List.of(new ChunkRange(0, null, BigInteger.valueOf(1001)), new ChunkRange(1, BigInteger.valueOf(1001), null)));

    private static PostgresDatabase db;
    private static Connection connection;

    @BeforeAll
    static void setUp() throws Exception {
        db = PostgresDatabase.fresh("canon");
        db.execute("CREATE TYPE public.mood AS ENUM ('sad', 'ok', 'happy')", FAMILIES, ROWS,
                // The same rows in other types: what a text route loads into a target whose types differ.
                "CREATE TABLE public.wider AS SELECT id, n::numeric(30,10) AS n, nn, f, r, b, t::varchar(200) AS t, vc::text AS vc, c,"
                        + " u, d, ts, tz, tm, by, j, js, si::bigint AS si, i4::bigint AS i4, mood, op FROM public.items",
                "ALTER TABLE public.wider ADD PRIMARY KEY (id)");
        connection = db.connect();
    }

    @AfterAll
    static void tearDown() throws Exception {
        connection.close();
    }

    private static ChunkDigest lane(RowEncoding encoding, int chunk, List<String> columns) throws Exception {
        PostgresChunkSource source = new PostgresChunkSource(connection, PLAN, "public", "items", columns, null, null, List.of("id"));
        try (ChunkRows rows = source.open(PLAN.chunk(chunk), encoding)) {
            while (rows.next()) {
                assertThat(rows.digest()).isNotNull();
            }
            return rows.digest();
        }
    }

    private static ChunkDigest copyOf(String table, RowEncoding encoding, int chunk) throws Exception {
        return new PostgresPublishedDigests(connection).read("public", table, COLUMNS, List.of("id"), PLAN, encoding).digest(chunk);
    }

    @Test
    void binaryCopyTextCopyAndDecodedValuesDigestEveryFamilyTheSameSpecialsIncluded() throws Exception {
        for (int chunk = 0; chunk < 2; chunk++) {
            ChunkDigest binary = lane(RowEncoding.POSTGRES_COPY_BINARY, chunk, FAMILY_COLUMNS);
            assertThat(binary.rows()).isEqualTo(1000);
            assertThat(lane(RowEncoding.POSTGRES_COPY_TEXT, chunk, FAMILY_COLUMNS)).as("text, chunk " + chunk).isEqualTo(binary);
            assertThat(lane(RowEncoding.VALUES, chunk, FAMILY_COLUMNS)).as("values, chunk " + chunk).isEqualTo(binary);
        }
    }

    @Test
    void aTypeOutsideTheFamiliesDigestsAsItsWireBytesEqualOnTheSameWireOnly() throws Exception {
        for (RowEncoding wire : List.of(RowEncoding.POSTGRES_COPY_BINARY, RowEncoding.POSTGRES_COPY_TEXT)) {
            for (int chunk = 0; chunk < 2; chunk++) {
                assertThat(copyOf("items", wire, chunk)).as(wire + ", chunk " + chunk).isEqualTo(lane(wire, chunk, COLUMNS));
            }
        }
        assertThat(lane(RowEncoding.POSTGRES_COPY_TEXT, 0, COLUMNS)).isNotEqualTo(lane(RowEncoding.POSTGRES_COPY_BINARY, 0, COLUMNS));
    }

    @Test
    void jdbcValuesDigestLikeTheDecodedValuesTheLaneLoaded() throws Exception {
        List<PlannedColumn> planned = new SourceColumnPlanner(connection).plan("public", "items", FAMILY_COLUMNS).columns();
        TypeFamily[] types = planned.stream().map(c -> TypeFamilies.of(c.arrivingType())).toArray(TypeFamily[]::new);
        ContentDigester digester = new ContentDigester(FAMILY_COLUMNS.size(), new int[]{0});
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + String.join(", ", FAMILY_COLUMNS.stream().map(c -> "\"" + c + "\"").toList())
                     + " FROM public.items WHERE id < 1001")) {
            while (rs.next()) {
                for (int c = 0; c < types.length; c++) {
                    digester.value(MssqlPublishedRead.of(types[c], rs.getMetaData().getColumnTypeName(c + 1)).read(rs, c + 1));
                }
                digester.endRow();
            }
        }
        assertThat(digester.digest()).isEqualTo(lane(RowEncoding.VALUES, 0, FAMILY_COLUMNS));
    }

    @Test
    void aTargetColumnOfAWiderTypeHoldingTheSameValuesDigestsTheSame() throws Exception {
        for (int chunk = 0; chunk < 2; chunk++) {
            assertThat(copyOf("wider", RowEncoding.POSTGRES_COPY_TEXT, chunk)).isEqualTo(lane(RowEncoding.POSTGRES_COPY_TEXT, chunk, COLUMNS));
        }
    }

    @Test
    void oneChangedValueChangesItsChunksDigestOnly() throws Exception {
        ChunkDigest first = copyOf("wider", RowEncoding.POSTGRES_COPY_BINARY, 0);
        ChunkDigest second = copyOf("wider", RowEncoding.POSTGRES_COPY_BINARY, 1);
        db.execute("UPDATE public.wider SET t = t || ' ' WHERE id = 1500");
        assertThat(copyOf("wider", RowEncoding.POSTGRES_COPY_BINARY, 0)).isEqualTo(first);
        ChunkDigest changed = copyOf("wider", RowEncoding.POSTGRES_COPY_BINARY, 1);
        assertThat(changed).isNotEqualTo(second);
        assertThat(changed.sameKeys(second)).isTrue();
        db.execute("UPDATE public.wider SET t = left(t, -1) WHERE id = 1500");
        assertThat(copyOf("wider", RowEncoding.POSTGRES_COPY_BINARY, 1)).isEqualTo(second);
    }
}

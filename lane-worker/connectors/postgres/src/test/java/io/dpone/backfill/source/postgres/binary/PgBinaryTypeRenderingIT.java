package io.dpone.backfill.source.postgres.binary;

import io.dpone.backfill.source.SpecialValue;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every accepted type and its edge values, inserted into a real PostgreSQL, streamed through plan and reader: each
 * decoded value renders exactly as PostgreSQL prints {@code col::text}, and selected values decode to the expected
 * Java values.
 */
class PgBinaryTypeRenderingIT {
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static Connection connection;

    @BeforeAll
    static void connect() throws SQLException {
        connection = SharedEmbeddedPostgres.get().connect(SharedEmbeddedPostgres.freshDatabase("binary_types"));
        pinRenderingSettings(connection);
    }

    @AfterAll
    static void disconnect() throws SQLException {
        connection.close();
    }

    /** The settings PgTextRendering reproduces; pinned so the expectations do not depend on server defaults. */
    static void pinRenderingSettings(Connection c) throws SQLException {
        execute(c, "SET TimeZone = 'UTC'", "SET DateStyle = 'ISO, MDY'", "SET extra_float_digits = 1",
                "SET bytea_output = 'hex'");
    }

    @Test
    void integersAtTheirLimitsAndNullRenderAndDecodeExactly() throws Exception {
        assertThat(roundTrip("int2", "-32768", "32767", "0", "NULL")).containsExactly((short) -32768, (short) 32767, (short) 0, null);
        assertThat(roundTrip("int4", "-2147483648", "2147483647", "0", "NULL")).containsExactly(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, null);
        assertThat(roundTrip("int8", "-9223372036854775808", "9223372036854775807", "0", "NULL"))
                .containsExactly(Long.MIN_VALUE, Long.MAX_VALUE, 0L, null);
    }

    @Test
    void numericKeepsItsScaleAndTurnsNanAndInfinitiesIntoSpecialValues() throws Exception {
        String wide = "123456789012345678901234567890.123456789012345678901234567890";
        String tiny = "0." + "0".repeat(16_382) + "1";
        String huge = "9".repeat(1_000);
        List<Object> values = roundTrip("numeric", "0", "0.00", "-0.001", "-" + wide, "'NaN'", "'Infinity'", "'-Infinity'",
                "NULL", "10000", "99990000", "1e100", tiny, huge, "0.5", "-1.10");

        assertThat(values.get(0)).isEqualTo(new BigDecimal("0"));
        assertThat((BigDecimal) values.get(1)).hasToString("0.00");
        assertThat((BigDecimal) values.get(2)).isEqualTo(new BigDecimal("-0.001"));
        assertThat((BigDecimal) values.get(3)).isEqualTo(new BigDecimal("-" + wide));
        assertThat(values.subList(4, 8)).containsExactly(SpecialValue.NAN, SpecialValue.POSITIVE_INFINITY,
                SpecialValue.NEGATIVE_INFINITY, null);
        assertThat(((BigDecimal) values.get(9)).toPlainString()).isEqualTo("99990000");
        assertThat((BigDecimal) values.get(11)).isEqualTo(new BigDecimal(tiny));
        assertThat((BigDecimal) values.get(14)).isEqualTo(new BigDecimal("-1.10"));
    }

    @Test
    void numericWithATypmodArrivesRoundedByTheServerAtItsDeclaredScale() throws Exception {
        assertThat(roundTrip("numeric(12,3)", "1", "-123456789.9995", "0", "NULL"))
                .containsExactly(new BigDecimal("1.000"), new BigDecimal("-123456790.000"), new BigDecimal("0.000"), null);
    }

    @Test
    void float8EdgeValuesRenderAsPostgresShortestAndDecodeToJavasOwnSpecials() throws Exception {
        List<Object> values = roundTrip("float8", "0", "'-0'", "'NaN'", "'Infinity'", "'-Infinity'", "4.9e-324",
                "2.2250738585072014e-308", "1.7976931348623157e308", "0.1", "1e15", "1e14", "123456789012345678",
                "0.0001", "0.00001", "-3.141592653589793", "9007199254740993", "1e23", "NULL");

        assertThat(Double.doubleToRawLongBits((Double) values.get(1))).isEqualTo(Double.doubleToRawLongBits(-0.0));
        assertThat((Double) values.get(2)).isNaN();
        assertThat(values.subList(3, 6)).containsExactly(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE);
        assertThat(values.get(7)).isEqualTo(Double.MAX_VALUE);
        assertThat(values.get(values.size() - 1)).isNull();
    }

    @Test
    void float4EdgeValuesRenderAsPostgresShortest() throws Exception {
        List<Object> values = roundTrip("float4", "0", "'-0'", "'NaN'", "'Infinity'", "'-Infinity'", "1.4e-45",
                "1.17549435e-38", "3.4028235e38", "0.1", "123456", "1234567", "0.00001", "16777217", "NULL");

        assertThat(Float.floatToRawIntBits((Float) values.get(1))).isEqualTo(Float.floatToRawIntBits(-0.0f));
        assertThat((Float) values.get(2)).isNaN();
        assertThat(values.get(5)).isEqualTo(Float.MIN_VALUE);
        assertThat(values.get(7)).isEqualTo(Float.MAX_VALUE);
    }

    @Test
    void randomFloatsAcrossAllMagnitudesRenderAsPostgresDoes() throws Exception {
        String table = newTable("id int PRIMARY KEY, d float8, r float4");
        execute(connection, "SELECT setseed(0.42)",
                "INSERT INTO " + table + " SELECT g, (random() - 0.5) * 10 ^ (random() * 616 - 308), "
                        + "((random() - 0.5) * 10 ^ (random() * 76 - 38))::float4 FROM generate_series(1, 20000) g",
                "INSERT INTO " + table + " SELECT 20000 + g, g * 0.1, (g * 0.1)::float4 FROM generate_series(1, 2000) g");

        assertEveryValueRendersAsPostgres(table, List.of("id", "d", "r"));
    }

    @Test
    void randomBitPatternsFromTheWholeFloatSpaceRenderAsPostgresDoes() throws Exception {
        String table = newTable("id int PRIMARY KEY, d float8, r float4");
        java.util.Random random = new java.util.Random(20_260_101);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
        out.write(new byte[] {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0});
        out.writeInt(0);
        out.writeInt(0);
        for (int id = 1; id <= 10_000; id++) {
            out.writeShort(3);
            out.writeInt(4);
            out.writeInt(id);
            out.writeInt(8);
            out.writeLong(random.nextLong());
            out.writeInt(4);
            out.writeInt(random.nextInt());
        }
        out.writeShort(-1);
        // Bit patterns cannot be written as SQL literals, so they go in through binary COPY FROM.
        connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI()
                .copyIn("COPY " + table + " FROM STDIN (FORMAT binary)", new java.io.ByteArrayInputStream(bytes.toByteArray()));

        assertEveryValueRendersAsPostgres(table, List.of("id", "d", "r"));
    }

    @Test
    void boolAndUuidRenderAndDecode() throws Exception {
        assertThat(roundTrip("bool", "true", "false", "NULL")).containsExactly(true, false, null);
        UUID random = UUID.randomUUID();
        assertThat(roundTrip("uuid", "'00000000-0000-0000-0000-000000000000'", "'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'",
                "'" + random + "'", "NULL"))
                .containsExactly(new UUID(0, 0), new UUID(-1, -1), random, null);
    }

    @Test
    void textInEveryShapeArrivesAsUtf8Strings() throws Exception {
        String longText = "ž😀".repeat(50_000);
        List<Object> values = roundTrip("text", "''", "'plain'", "'žluťoučký kůň'", "'😀👍🏽 family: 👨‍👩‍👧'",
                "'漢字かな'", "E'a\\\\b\"c''d'", "E'line1\\nline2\\ttab'", "'" + longText + "'", "NULL");

        assertThat(values.get(0)).isEqualTo("");
        assertThat(values.get(3)).isEqualTo("😀👍🏽 family: 👨‍👩‍👧");
        assertThat(values.get(5)).isEqualTo("a\\b\"c'd");
        assertThat(values.get(7)).isEqualTo(longText);
        assertThat(values.get(8)).isNull();
        assertThat(roundTrip("varchar(10)", "'abc'", "''", "'ž😀'", "NULL")).containsExactly("abc", "", "ž😀", null);
        assertThat(roundTrip("name", "'pg_catalog'", "'Mixed Case \"q\"'", "NULL")).containsExactly("pg_catalog", "Mixed Case \"q\"", null);
    }

    @Test
    void charNKeepsItsPaddingWhileItsTextFormDropsIt() throws Exception {
        List<Object> values = roundTrip("char(5)", "'ab'", "''", "'abcde'", "'ž'", "' a '", "NULL");

        assertThat(values).containsExactly("ab   ", "     ", "abcde", "ž    ", " a   ", null);
        assertThat(PgTextRendering.render(PgType.BPCHAR, "ab   ")).isEqualTo("ab");
    }

    @Test
    void datesFromTheMinimumToTheMaximumIncludingBcAndInfinities() throws Exception {
        List<Object> values = roundTrip("date", "'4713-11-24 BC'", "'5874897-12-31'", "'0001-01-01'", "'0001-12-31 BC'",
                "'0044-03-15 BC'", "'2000-01-01'", "'1999-12-31'", "'2024-02-29'", "'10000-01-01'", "'infinity'", "'-infinity'", "NULL");

        assertThat(values.subList(0, 4)).containsExactly(LocalDate.of(-4712, 11, 24), LocalDate.of(5_874_897, 12, 31),
                LocalDate.of(1, 1, 1), LocalDate.of(0, 12, 31));
        assertThat(values.subList(9, 12)).containsExactly(SpecialValue.POSITIVE_INFINITY, SpecialValue.NEGATIVE_INFINITY, null);
    }

    @Test
    void timeKeepsMicrosecondsAndTwentyFourOClockArrivesAsEndOfDay() throws Exception {
        assertThat(roundTrip("time", "'00:00:00'", "'23:59:59.999999'", "'24:00:00'", "'12:34:56.789'", "'00:00:00.000001'", "NULL"))
                .containsExactly(LocalTime.MIDNIGHT, LocalTime.of(23, 59, 59, 999_999_000), SpecialValue.END_OF_DAY,
                        LocalTime.of(12, 34, 56, 789_000_000), LocalTime.of(0, 0, 0, 1_000), null);
        assertThat(roundTrip("time(3)", "'12:34:56.78951'", "NULL")).containsExactly(LocalTime.of(12, 34, 56, 790_000_000), null);
    }

    @Test
    void timestampsFromTheMinimumToTheMaximumIncludingBcAndInfinities() throws Exception {
        List<Object> values = roundTrip("timestamp", "'4713-11-24 00:00:00 BC'", "'294276-12-31 23:59:59.999999'",
                "'2000-01-01 00:00:00'", "'1999-12-31 23:59:59.999999'", "'0044-03-15 12:00:00.5 BC'", "'1970-01-01 00:00:00.000001'",
                "'infinity'", "'-infinity'", "NULL");

        assertThat(values.subList(0, 4)).containsExactly(LocalDateTime.of(-4712, 11, 24, 0, 0),
                LocalDateTime.of(294_276, 12, 31, 23, 59, 59, 999_999_000), LocalDateTime.of(2000, 1, 1, 0, 0),
                LocalDateTime.of(1999, 12, 31, 23, 59, 59, 999_999_000));
        assertThat(values.subList(6, 9)).containsExactly(SpecialValue.POSITIVE_INFINITY, SpecialValue.NEGATIVE_INFINITY, null);
    }

    @Test
    void timestamptzArrivesInUtcWhateverZoneTheValuesWereWrittenIn() throws Exception {
        String table = newTable("id int PRIMARY KEY, v timestamptz");
        execute(connection, "SET TimeZone = 'Asia/Kolkata'",
                "INSERT INTO " + table + " VALUES (1, '2024-06-01 12:00:00.5'), (2, '2024-03-31 02:30:00 Europe/Prague'), "
                        + "(3, '4713-11-24 00:00:00+00 BC'), (4, '294276-12-31 23:59:59.999999+00'), (5, 'infinity'), "
                        + "(6, '-infinity'), (7, NULL), (8, '0044-03-15 12:00:00+00 BC'), (9, '1900-01-01 00:00:00')");
        pinRenderingSettings(connection);

        List<Object> values = assertEveryValueRendersAsPostgres(table, List.of("id", "v"));

        assertThat(values.subList(0, 4)).containsExactly(OffsetDateTime.of(2024, 6, 1, 6, 30, 0, 500_000_000, ZoneOffset.UTC),
                // 02:30 does not exist in Prague that night (clocks jump 02:00 -> 03:00); PostgreSQL reads it at +01.
                OffsetDateTime.of(2024, 3, 31, 1, 30, 0, 0, ZoneOffset.UTC), OffsetDateTime.of(-4712, 11, 24, 0, 0, 0, 0, ZoneOffset.UTC),
                OffsetDateTime.of(294_276, 12, 31, 23, 59, 59, 999_999_000, ZoneOffset.UTC));
        assertThat(values.subList(4, 7)).containsExactly(SpecialValue.POSITIVE_INFINITY, SpecialValue.NEGATIVE_INFINITY, null);
    }

    @Test
    void timestamptzStreamedFromANonUtcSessionDecodesToTheSameInstant() throws Exception {
        String table = newTable("id int PRIMARY KEY, v timestamptz");
        execute(connection, "INSERT INTO " + table + " VALUES (1, '2024-06-01 12:00:00+00')");
        try (Connection other = SharedEmbeddedPostgres.get().connect(connection.getCatalog())) {
            execute(other, "SET TimeZone = 'Pacific/Chatham'");
            SourceColumnPlan plan = new SourceColumnPlanner(other).plan("public", table, List.of("id", "v"));
            try (BinaryCopyReader reader = BinaryCopyReader.start(other, plan, null)) {
                assertThat(reader.next()).isTrue();
                assertThat(reader.row()[1]).isEqualTo(OffsetDateTime.of(2024, 6, 1, 12, 0, 0, 0, ZoneOffset.UTC));
            }
        }
    }

    @Test
    void byteaEmptyAndEveryByteValueRoundTrip() throws Exception {
        StringBuilder hex = new StringBuilder();
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
            hex.append(String.format("%02x", i));
        }
        List<Object> values = roundTrip("bytea", "''", "'\\x" + hex + "'", "NULL");

        assertThat((byte[]) values.get(0)).isEmpty();
        assertThat((byte[]) values.get(1)).containsExactly(all);
        assertThat(values.get(2)).isNull();
    }

    @Test
    void jsonArrivesVerbatimAndJsonbAsItsNormalizedTextAfterTheVersionByte() throws Exception {
        String document = "'{\"b\": 1,  \"a\": [1, 2.50, \"x\"], \"b\": 2}'";
        assertThat(roundTrip("json", document, "'\"😀\"'", "'null'", "NULL"))
                .containsExactly("{\"b\": 1,  \"a\": [1, 2.50, \"x\"], \"b\": 2}", "\"😀\"", "null", null);
        assertThat(roundTrip("jsonb", document, "'{}'", "'[]'", "'\"😀\"'", "'null'", "NULL"))
                .containsExactly("{\"a\": [1, 2.50, \"x\"], \"b\": 2}", "{}", "[]", "\"😀\"", "null", null);
    }

    @Test
    void enumsArraysAndDomainsArriveThroughServerSideCasts() throws Exception {
        execute(connection, "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy', 'with \"quote\"')",
                "CREATE DOMAIN amount AS numeric(12,2) CHECK (VALUE >= 0)",
                "CREATE DOMAIN positive_amount AS amount CHECK (VALUE > 0)",
                "CREATE DOMAIN tags AS text[]");

        assertThat(roundTrip("mood", "'happy'", "'with \"quote\"'", "NULL")).containsExactly("happy", "with \"quote\"", null);
        assertThat(roundTrip("int[]", "'{1,NULL,3}'", "'{}'", "'{{1,2},{3,4}}'", "'[0:1]={7,8}'", "NULL"))
                .containsExactly("{1,NULL,3}", "{}", "{{1,2},{3,4}}", "[0:1]={7,8}", null);
        assertThat(roundTrip("text[]", "ARRAY['a b', NULL, '', 'NULL', 'quo\"te', '😀', 'back\\slash']", "NULL"))
                .containsExactly("{\"a b\",NULL,\"\",\"NULL\",\"quo\\\"te\",😀,\"back\\\\slash\"}", null);
        assertThat(roundTrip("amount", "12.5", "0", "NULL")).containsExactly(new BigDecimal("12.50"), new BigDecimal("0.00"), null);
        assertThat(roundTrip("positive_amount", "0.01", "NULL")).containsExactly(new BigDecimal("0.01"), null);
        assertThat(roundTrip("tags", "'{x,NULL}'", "NULL")).containsExactly("{x,NULL}", null);
        assertThat(roundTrip("mood[]", "'{sad,NULL,happy}'")).containsExactly("{sad,NULL,happy}");
        assertThat(roundTrip("timestamptz[]", "'{\"2024-01-01 00:00:00+02\",infinity}'"))
                .containsExactly("{\"2023-12-31 22:00:00+00\",infinity}");
    }

    /**
     * Inserts {@code literals} (SQL expressions) into a fresh one-column table of {@code type}, streams it, asserts
     * every rendering equals {@code v::text} and returns the decoded values in insertion order.
     */
    private static List<Object> roundTrip(String type, String... literals) throws Exception {
        String table = newTable("id int PRIMARY KEY, v " + type);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < literals.length; i++) {
            rows.add("(" + (i + 1) + ", " + literals[i] + ")");
        }
        execute(connection, "INSERT INTO " + table + " VALUES " + String.join(", ", rows));
        List<Object> values = assertEveryValueRendersAsPostgres(table, List.of("id", "v"));
        assertThat(values).hasSize(literals.length);
        return values;
    }

    /** Streams {@code columns} (the first is an int id) and compares each rendering with PostgreSQL's; returns column 2 by id. */
    private static List<Object> assertEveryValueRendersAsPostgres(String table, List<String> columns) throws SQLException, IOException {
        Map<Integer, List<String>> expected = new LinkedHashMap<>();
        String texts = String.join(", ", columns.stream().map(c -> c + "::text").toList());
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + texts + " FROM " + table + " ORDER BY id")) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns.size(); i++) {
                    row.add(rs.getString(i));
                }
                expected.put(rs.getInt(1), row);
            }
        }
        SourceColumnPlan plan = new SourceColumnPlanner(connection).plan("public", table, columns);
        Map<Integer, Object> decoded = new java.util.TreeMap<>();
        try (BinaryCopyReader reader = BinaryCopyReader.start(connection, plan, null)) {
            while (reader.next()) {
                Object[] row = reader.row();
                int id = (Integer) row[0];
                for (int i = 0; i < columns.size(); i++) {
                    PgType type = plan.columns().get(i).arrivingType();
                    assertThat(PgTextRendering.render(type, row[i]))
                            .as("%s.%s of row %d (%s, decoded %s)", table, columns.get(i), id, type, row[i])
                            .isEqualTo(expected.get(id).get(i));
                }
                decoded.put(id, row[1]);
            }
            assertThat(reader.rowsRead()).isEqualTo(expected.size());
            assertThat(reader.finished()).isTrue();
        }
        return new ArrayList<>(decoded.values());
    }

    private static String newTable(String columns) throws SQLException {
        String table = "t" + TABLES.incrementAndGet();
        execute(connection, "CREATE TABLE " + table + " (" + columns + ")");
        return table;
    }

    static void execute(Connection c, String... statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }
}

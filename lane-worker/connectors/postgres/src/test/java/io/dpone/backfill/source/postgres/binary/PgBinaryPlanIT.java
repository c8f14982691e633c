package io.dpone.backfill.source.postgres.binary;

import io.dpone.backfill.source.UnsupportedSourceTypeException;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.dpone.backfill.source.postgres.binary.PgBinaryTypeRenderingIT.execute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** What the planner reads from the catalog, what it projects, and what it refuses before any copy starts. */
class PgBinaryPlanIT {
    private static Connection connection;
    private static SourceColumnPlanner planner;

    @BeforeAll
    static void connect() throws SQLException {
        connection = SharedEmbeddedPostgres.get().connect(SharedEmbeddedPostgres.freshDatabase("binary_plan"));
        planner = new SourceColumnPlanner(connection);
        execute(connection, "CREATE TYPE mood AS ENUM ('sad', 'happy')",
                "CREATE DOMAIN amount AS numeric(12,2)",
                "CREATE DOMAIN positive_amount AS amount CHECK (VALUE > 0)",
                "CREATE DOMAIN moody AS mood",
                "CREATE DOMAIN spot AS point",
                "CREATE TYPE pair AS (a int, b int)",
                // A user type that borrows a built-in's name must not pass for it: types are matched by OID.
                "CREATE TYPE public.int4 AS (x int)",
                "CREATE TABLE shapes (id pg_catalog.int4, m mood, tags text[], a amount, pa positive_amount, mo moody, "
                        + "n numeric(12,3), v varchar(10), c char(4), ts timestamp(3))");
    }

    @AfterAll
    static void disconnect() throws SQLException {
        connection.close();
    }

    @Test
    void enumsAndArraysAreCastToTextDomainsToTheirBaseAndOtherColumnsProjectedPlain() throws SQLException {
        SourceColumnPlan plan = planner.plan("public", "shapes", List.of("id", "m", "tags", "a", "pa", "mo", "n", "v", "c", "ts"));

        assertThat(plan.columns()).extracting(PlannedColumn::projection).containsExactly("\"id\"", "\"m\"::pg_catalog.text",
                "\"tags\"::pg_catalog.text", "\"a\"::pg_catalog.\"numeric\"", "\"pa\"::pg_catalog.\"numeric\"",
                "\"mo\"::pg_catalog.text", "\"n\"", "\"v\"", "\"c\"", "\"ts\"");
        assertThat(plan.columns()).extracting(PlannedColumn::kind).containsExactly(PlannedColumn.Kind.BASE, PlannedColumn.Kind.ENUM,
                PlannedColumn.Kind.ARRAY, PlannedColumn.Kind.DOMAIN, PlannedColumn.Kind.DOMAIN, PlannedColumn.Kind.DOMAIN,
                PlannedColumn.Kind.BASE, PlannedColumn.Kind.BASE, PlannedColumn.Kind.BASE, PlannedColumn.Kind.BASE);
        assertThat(plan.columns()).extracting(PlannedColumn::arrivingType).containsExactly(PgType.INT4, PgType.TEXT, PgType.TEXT,
                PgType.NUMERIC, PgType.NUMERIC, PgType.TEXT, PgType.NUMERIC, PgType.VARCHAR, PgType.BPCHAR, PgType.TIMESTAMP);
        assertThat(plan.columns()).extracting(PlannedColumn::declaredType).containsExactly("integer", "mood", "text[]", "amount",
                "positive_amount", "moody", "numeric(12,3)", "character varying(10)", "character(4)", "timestamp(3) without time zone");
    }

    @Test
    void theTypmodATargetNeedsIsKeptThroughDomains() throws SQLException {
        SourceColumnPlan plan = planner.plan("public", "shapes", List.of("a", "pa", "n", "v", "c", "ts", "m", "id"));

        int numeric12dot2 = ((12 << 16) | 2) + 4;
        assertThat(plan.columns()).extracting(PlannedColumn::typmod)
                .containsExactly(numeric12dot2, numeric12dot2, ((12 << 16) | 3) + 4, 10 + 4, 4 + 4, 3, -1, -1);
    }

    @Test
    void theCopyStatementSelectsTheProjectionsFromTheQuotedTableWithThePredicate() throws SQLException {
        SourceColumnPlan plan = planner.plan("public", "shapes", List.of("id", "m"));

        assertThat(plan.copyStatement("id >= 1 AND id < 10")).isEqualTo(
                "COPY (SELECT \"id\", \"m\"::pg_catalog.text FROM \"public\".\"shapes\" WHERE (id >= 1 AND id < 10)) TO STDOUT (FORMAT binary)");
        assertThat(plan.copyStatement(null)).isEqualTo(
                "COPY (SELECT \"id\", \"m\"::pg_catalog.text FROM \"public\".\"shapes\") TO STDOUT (FORMAT binary)");
    }

    @Test
    void identifiersWithQuotesSpacesAndCaseRoundTripThroughTheCopy() throws Exception {
        execute(connection, "CREATE SCHEMA \"Odd \"\"Schema\"\"\"",
                "CREATE TABLE \"Odd \"\"Schema\"\"\".\"Ta ble\" (\"Col \"\"q\"\"\" int, \"UPPER\" text)",
                "INSERT INTO \"Odd \"\"Schema\"\"\".\"Ta ble\" VALUES (7, 'seven')");
        SourceColumnPlan plan = planner.plan("Odd \"Schema\"", "Ta ble", List.of("UPPER", "Col \"q\""));

        assertThat(plan.copyStatement(null)).isEqualTo(
                "COPY (SELECT \"UPPER\", \"Col \"\"q\"\"\" FROM \"Odd \"\"Schema\"\"\".\"Ta ble\") TO STDOUT (FORMAT binary)");
        try (BinaryCopyReader reader = BinaryCopyReader.start(connection, plan, null)) {
            assertThat(reader.next()).isTrue();
            assertThat(reader.row()).containsExactly("seven", 7);
            assertThat(reader.next()).isFalse();
        }
    }

    @Test
    void everyUnsupportedTypeIsRefusedAtPlanTimeNamingTheColumnAndItsType() throws SQLException {
        Map<String, String> unsupported = new LinkedHashMap<>();
        unsupported.put("p_point", "point");
        unsupported.put("p_interval", "interval");
        unsupported.put("p_money", "money");
        unsupported.put("p_inet", "inet");
        unsupported.put("p_xml", "xml");
        unsupported.put("p_range", "int4range");
        unsupported.put("p_bits", "bit(3)");
        unsupported.put("p_oid", "oid");
        unsupported.put("p_timetz", "time with time zone");
        unsupported.put("p_pair", "pair");
        unsupported.put("p_fake_int4", "public.int4");
        unsupported.put("p_spot", "spot");
        List<String> columns = new ArrayList<>();
        unsupported.forEach((column, type) -> columns.add(column + " " + type));
        execute(connection, "CREATE TABLE refused (id int, " + String.join(", ", columns) + ")");

        for (Map.Entry<String, String> entry : unsupported.entrySet()) {
            UnsupportedSourceTypeException refused = catchThrowableOfType(UnsupportedSourceTypeException.class,
                    () -> planner.plan("public", "refused", List.of("id", entry.getKey())));

            assertThat(refused).as(entry.getValue()).isNotNull();
            assertThat(refused.column()).isEqualTo(entry.getKey());
            assertThat(refused.getMessage()).contains("\"" + entry.getKey() + "\"").contains("int2, int4");
        }
        assertThat(catchThrowableOfType(UnsupportedSourceTypeException.class,
                () -> planner.plan("public", "refused", List.of("p_interval"))).type()).isEqualTo("interval");
        assertThat(catchThrowableOfType(UnsupportedSourceTypeException.class,
                () -> planner.plan("public", "refused", List.of("p_spot"))).type()).isEqualTo("spot over point");
        assertThat(catchThrowableOfType(UnsupportedSourceTypeException.class,
                () -> planner.plan("public", "refused", List.of("p_fake_int4"))).type()).isEqualTo("public.int4");
    }

    @Test
    void unknownTablesUnknownColumnsAndDuplicatesAreRefusedByName() {
        assertThatThrownBy(() -> planner.plan("public", "nowhere", List.of("id")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no table public.nowhere");
        assertThatThrownBy(() -> planner.plan("public", "shapes", List.of("id", "ghost")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no column \"ghost\"");
        assertThatThrownBy(() -> planner.plan("public", "shapes", List.of("id", "id")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"id\" is listed twice");
        assertThatThrownBy(() -> planner.plan("public", "shapes", List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no columns");
    }

    @Test
    void aDroppedColumnIsNotFoundEvenThoughItsAttributeRemains() throws SQLException {
        execute(connection, "CREATE TABLE dropping (id int, gone text)", "ALTER TABLE dropping DROP COLUMN gone");

        assertThatThrownBy(() -> planner.plan("public", "dropping", List.of("gone")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no column \"gone\"");
        assertThat(planner.plan("public", "dropping", List.of("id")).columns()).hasSize(1);
    }

    @Test
    void aServerThatIsNotUtf8IsRefusedBecauseItsTextMayNotBeUtf8() throws SQLException {
        String name = "binary_sql_ascii_" + Long.toString(System.nanoTime(), 36);
        execute(connection, "CREATE DATABASE " + name + " ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
        try (Connection ascii = SharedEmbeddedPostgres.get().connect(name)) {
            execute(ascii, "CREATE TABLE t (id int)");

            assertThatThrownBy(() -> new SourceColumnPlanner(ascii).plan("public", "t", List.of("id")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("server_encoding SQL_ASCII");
        }
    }
}

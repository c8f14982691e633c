package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.backfill.testsupport.mssql.SqlServerTestEngine;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `backfill demo` and `backfill bench` with a SQL Server target (--target-url): they load into a scratch schema they
 * create, name and drop. The full runs need SQL Server itself: their tables are the reference design's shape (a
 * clustered columnstore, uniqueidentifier keys, datetimeoffset) and the bench's baseline is a MERGE, none of which
 * Babelfish can take. The refusals and the cleanup run on every T-SQL engine.
 */
class SqlServerDemoAndBenchIT {
    private static final String BABELFISH_GAPS = "on Babelfish: CREATE CLUSTERED COLUMNSTORE INDEX and MERGE are not supported"
            + " and uniqueidentifier values through bulk copy are corrupted; this runs on SQL Server only (BACKFILL_MSSQL_URL)";

    @TempDir
    Path dir;

    SqlServerTestEngine engine;
    String database;
    Map<String, String> env;

    @BeforeEach
    void engine() {
        engine = SqlServerTestEngine.require();
        database = engine.freshDatabase("scratch");
        env = Map.of("BACKFILL_MSSQL_USER", engine.user(), "BACKFILL_MSSQL_PASSWORD", engine.password());
    }

    @Test
    void demoRefusesAnExistingScratchSchemaBeforeStartingAnything() throws Exception {
        try (Connection c = engine.connect(database); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA taken");
        }
        BackfillProcess.Result demo = BackfillProcess.run(dir, env, Duration.ofMinutes(2), "demo", "--rows", "1000",
                "--target-url", engine.jdbcUrl(database), "--scratch-schema", "taken");
        assertThat(demo.exitCode()).isNotZero();
        assertThat(demo.stderr()).contains("schema taken already exists").doesNotContain("demo: embedded PostgreSQL 17 on");
        assertThat(tablesIn("taken")).as("nothing was created in it").isEmpty();
        assertThat(schemaExists("taken")).as("and it was not dropped: the demo only drops what it created").isTrue();
    }

    @Test
    void benchDropsItsScratchSchemaWhetherItsArmsSucceedOrFail() throws Exception {
        BackfillProcess.Result bench = BackfillProcess.run(dir, env, Duration.ofMinutes(4), "bench", "--rows", "5000",
                "--chunks", "2", "--arms", "B0", "--format", "json", "--target-url", engine.jdbcUrl(database),
                "--scratch-schema", "bench_scratch");
        assertThat(bench.stderr()).contains("scratch schema bench_scratch");
        if (engine.kind().isSqlServer()) {
            assertThat(bench.exitCode()).as(bench.stderr()).isZero();
            assertThat(new ObjectMapper().readTree(bench.stdout()).path("arms").path("B0").path("rows").asLong()).isEqualTo(5000);
        } else {
            assertThat(bench.exitCode()).as("B0 builds a clustered columnstore, which Babelfish refuses").isNotZero();
            assertThat(bench.stderr()).containsIgnoringCase("columnstore");
        }
        assertThat(schemaExists("bench_scratch")).as("dropped with everything in it").isFalse();
    }

    @Test
    void demoLoadsIntoAScratchSchemaOnSqlServerAndVerifiesThePublishedTable() throws Exception {
        Assumptions.assumeTrue(engine.kind().isSqlServer(), BABELFISH_GAPS);
        BackfillProcess.Result demo = BackfillProcess.run(dir, env, Duration.ofMinutes(5), "demo", "--rows", "20000",
                "--chunks", "8", "--target-url", engine.jdbcUrl(database), "--scratch-schema", "demo_scratch");
        assertThat(demo.exitCode()).as(demo.stderr()).isZero();
        assertThat(demo.stderr()).contains("verified: source 20,000 rows, published 20,000 rows, 20,000 distinct keys, key+amount digest equal")
                .contains("scratch schema demo_scratch dropped");
        JsonNode evidence = new ObjectMapper().readTree(demo.stdout().substring(demo.stdout().indexOf('{'))).path("backfill");
        assertThat(evidence.path("phase").asText()).isEqualTo("HandoffCommitted");
        assertThat(schemaExists("demo_scratch")).isFalse();
    }

    @Test
    void benchRunsEveryArmAgainstSqlServerWithAMergeIntoAColumnstoreBaseline() throws Exception {
        Assumptions.assumeTrue(engine.kind().isSqlServer(), BABELFISH_GAPS);
        BackfillProcess.Result bench = BackfillProcess.run(dir, env, Duration.ofMinutes(8), "bench", "--rows", "20000",
                "--chunks", "4", "--format", "json", "--target-url", engine.jdbcUrl(database));
        assertThat(bench.exitCode()).as(bench.stderr()).isZero();
        JsonNode report = new ObjectMapper().readTree(bench.stdout());
        for (String arm : List.of("B0", "B1", "B2", "S")) {
            assertThat(report.path("arms").path(arm).path("rows").asLong()).as(arm).isEqualTo(20_000);
        }
        assertThat(schemaExists(report.path("scratchSchema").asText())).isFalse();
    }

    private boolean schemaExists(String schema) throws Exception {
        try (Connection c = engine.connect(database); PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM sys.schemas WHERE name = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    private List<String> tablesIn(String schema) throws Exception {
        try (Connection c = engine.connect(database);
             PreparedStatement ps = c.prepareStatement("SELECT name FROM sys.tables WHERE SCHEMA_NAME(schema_id) = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                List<String> names = new java.util.ArrayList<>();
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
                return names;
            }
        }
    }
}

package io.dpone.backfill.e2e;

import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.testsupport.mssql.SqlServerTestEngine;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import io.dpone.backfill.wiring.CampaignRuntime;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One PostgreSQL-to-SQL Server campaign for the process-level suites: a source orders table with numeric, Unicode
 * text, timestamptz, date, boolean, bytea, jsonb and nullable columns, its reviewed target on the resolved T-SQL
 * engine, the campaign file and the Secret manifests a user would write. On Babelfish the table leaves out what
 * Babelfish cannot take (temporal values through bulk copy arrive corrupted, CONVERT of varbinary with style 1 fails
 * in the content fingerprint, sp_rename cannot carry a primary key constraint's name): those columns and the key
 * constraint are proven on SQL Server only.
 */
final class SqlServerRoute {
    final SqlServerTestEngine engine;
    final boolean sqlServer;
    final PostgresDatabase source;
    final String database;
    final Path dir;
    final Path campaignFile;
    final Path secretsFile;
    final CampaignBlueprint blueprint;
    final CampaignFiles files;
    final int rows;
    private final int leaseSeconds;

    SqlServerRoute(Path dir, String backfillId, int rows, int buckets, int lanes, int leaseSeconds) throws Exception {
        this(dir, backfillId, rows, "{column: id, kind: integer, buckets: %d, lowerBound: 1, upperBound: %d}".formatted(buckets, rows),
                lanes, leaseSeconds);
    }

    /** {@code chunk}: the campaign's {@code spec.chunk} as a YAML flow mapping. */
    SqlServerRoute(Path dir, String backfillId, int rows, String chunk, int lanes, int leaseSeconds) throws Exception {
        this.engine = SqlServerTestEngine.require();
        this.dir = dir;
        this.rows = rows;
        this.leaseSeconds = leaseSeconds;
        this.sqlServer = engine.kind().isSqlServer();
        if (!sqlServer) {
            System.out.println("on Babelfish: without placed_at/ship_date (temporal bulk copy gap), payload (binary CONVERT"
                    + " style 1 gap in the fingerprint) and the primary key constraint (constraint sp_rename gap); those"
                    + " run on SQL Server only");
        }
        this.source = PostgresDatabase.fresh("mssqlsrc");
        source.execute("""
                CREATE TABLE public.orders (
                  id bigint PRIMARY KEY, amount numeric(12,2) NOT NULL, title text NOT NULL, placed_at timestamptz NOT NULL,
                  ship_date date, paid boolean NOT NULL, payload bytea, attrs jsonb, note text)""");
        if (!sqlServer) {
            source.execute("ALTER TABLE public.orders DROP COLUMN placed_at, DROP COLUMN ship_date, DROP COLUMN payload");
        }
        source.execute("""
                INSERT INTO public.orders (id, amount, title""" + (sqlServer ? ", placed_at, ship_date" : "") + """
                , paid""" + (sqlServer ? ", payload" : "") + """
                , attrs, note)
                SELECT i, round(mod(i * 7.31, 100000), 2), 'order ' || i || ' – Grüße ✓ ' || repeat('é', mod(i, 5)) || CASE WHEN mod(i, 97) = 0 THEN ' 🚀' ELSE '' END,
                       """ + (sqlServer ? """
                       timestamptz '2024-01-01 00:00:00+00' + i * interval '37 seconds 123457 microseconds',
                       CASE WHEN mod(i, 11) = 0 THEN NULL ELSE date '2024-01-01' + mod(i, 700) END,""" : "") + """
                       mod(i, 2) = 0,""" + (sqlServer ? """
                       CASE WHEN mod(i, 13) = 0 THEN NULL ELSE decode(lpad(to_hex(i), 8, '0'), 'hex') END,""" : "") + """
                       CASE WHEN mod(i, 17) = 0 THEN NULL ELSE jsonb_build_object('n', i, 'tag', 'ü' || mod(i, 9)) END,
                       CASE WHEN mod(i, 3) = 0 THEN NULL ELSE 'note ' || i END
                  FROM generate_series(1, %d) i""".formatted(rows));
        this.database = engine.freshDatabase("route");
        try (Connection c = engine.connect(database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE dbo.orders (id bigint NOT NULL" + (sqlServer ? " CONSTRAINT orders_pk PRIMARY KEY" : "")
                    + ", amount decimal(12,2) NOT NULL, title nvarchar(200) NOT NULL"
                    + (sqlServer ? ", placed_at datetimeoffset(6) NOT NULL, ship_date date NULL" : "")
                    + ", paid bit NOT NULL" + (sqlServer ? ", payload varbinary(max) NULL" : "")
                    + ", attrs nvarchar(max) NULL, note nvarchar(100) NULL)");
        }
        this.campaignFile = Files.writeString(dir.resolve("campaign.yaml"), """
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata: {name: orders-initial, namespace: data-platform}
                spec:
                  backfillId: %s
                  source: {type: postgres, connectionSecretRef: {name: src-db}, schema: public, table: orders}
                  target: {type: mssql, connectionSecretRef: {name: tgt-db}, schema: dbo, table: orders}
                  uniqueKey: [id]
                  chunk: %s
                  parallelWorkers: %d
                  state: {schema: backfill_state}
                  publication: {mode: shadow_swap}
                """.formatted(backfillId, chunk, lanes));
        this.secretsFile = CampaignFiles.writeSecrets(dir, source.jdbcUrl(), engine.jdbcUrl(database), engine.user(),
                engine.password());
        this.files = new CampaignFiles(dir, campaignFile, secretsFile);

        this.blueprint = CampaignBlueprint.of(CampaignReader.read(campaignFile));
    }

    /** One row the reviewed live table held before the campaign: a rollback must bring it back. */
    void insertOldLiveRow() throws SQLException {
        try (Connection c = engine.connect(database); Statement s = c.createStatement()) {
            s.execute("INSERT INTO dbo.orders (id, amount, title, paid" + (sqlServer ? ", placed_at" : "")
                    + ") VALUES (-1, 0, N'the old table', 0" + (sqlServer ? ", SYSDATETIMEOFFSET()" : "") + ")");
        }
    }

    /** Runs the packaged CLI as a user would, in this route's directory, and returns its output. */
    String cli(int expectedExit, String... args) throws Exception {
        return files.cli(env(), Duration.ofMinutes(5), expectedExit, args);
    }

    String[] withCampaign(String command, String... extra) {
        return files.withCampaign(command, extra);
    }

    /** Environment for `backfill` processes: leases of {@code leaseSeconds} so takeovers happen quickly. */
    Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("BACKFILL_LEASE_TTL_SECONDS", Integer.toString(leaseSeconds));
        env.put("BACKFILL_LEASE_RENEW_SECONDS", "1");
        env.put("BACKFILL_DRAIN_SECONDS", "10");
        env.put("BACKFILL_LOCK_TIMEOUT_SECONDS", "10");
        return env;
    }

    /** Environment of a `backfill lane` process: connections only through the environment, like a pod. */
    Map<String, String> laneEnv(String fault) {
        Map<String, String> env = env();
        env.put("BACKFILL_SOURCE_JDBC_URL", source.jdbcUrl());
        env.put("BACKFILL_TARGET_JDBC_URL", engine.jdbcUrl(database));
        env.put("BACKFILL_TARGET_USER", engine.user());
        env.put("BACKFILL_TARGET_PASSWORD", engine.password());
        if (fault != null) {
            env.put("BACKFILL_FAULT", fault);
        }
        return env;
    }

    String[] laneArgs(int lane) {
        return new String[]{"lane", "--run-key", blueprint.identity().runKey(), "--lane", Integer.toString(lane),
                "--state-schema", "backfill_state", "--target-type", "mssql"};
    }

    String[] runArgs(String command) {
        return files.runArgs(command);
    }

    /** Takes the campaign from nothing to Loading in this JVM, then lets go of the lease for the next driver. */
    void prepareToLoading() throws Exception {
        EngineTimings timings = new EngineTimings(Duration.ofSeconds(leaseSeconds), Duration.ofSeconds(1),
                Duration.ofSeconds(10), Duration.ofSeconds(10));
        try (CampaignRuntime s = CampaignRuntime.open(blueprint, app -> source.connect(), app -> engine.connect(database),
                timings, "e2e-prep")) {
            CampaignPreparation.toLoading(s, blueprint, timings);
        }
    }

    /** The published table equals the source value for value, each key once, with one publication and handoff receipt. */
    void assertPublishedExactlyTheSource() throws SQLException {
        try (Connection src = source.connect(); Connection tgt = engine.connect(database)) {
            List<String> expected = sourceRows(src, sqlServer);
            List<String> published = targetRows(tgt, sqlServer);
            assertThat(published).hasSize(rows);
            assertThat(published).isEqualTo(expected);
            assertThat(count("SELECT COUNT_BIG(*) - COUNT_BIG(DISTINCT id) FROM dbo.orders")).isZero();
            assertThat(count("SELECT COUNT_BIG(*) FROM backfill_state.publication_receipt")).isEqualTo(1);
            assertThat(count("SELECT COUNT_BIG(*) FROM backfill_state.handoff_receipt")).isEqualTo(1);
        }
    }

    /** Committed chunks, 0 while the driver has not created the ledger yet. */
    long committedChunks() {
        try {
            return count("SELECT COUNT_BIG(*) FROM backfill_state.chunk WHERE state = N'committed'");
        } catch (SQLException notYet) {
            return 0;
        }
    }

    /** Each row of {@code sql}'s result as its columns joined by {@code |}, for a failing assertion to show. */
    List<String> lines(String sql) throws SQLException {
        List<String> lines = new java.util.ArrayList<>();
        try (Connection c = engine.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder line = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    line.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                lines.add(line.toString());
            }
        }
        return lines;
    }

    long count(String sql) throws SQLException {
        try (Connection c = engine.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Each row in one canonical text form, both sides: exact decimals, UTC instants to the microsecond, bytes as hex. */
    private static List<String> sourceRows(Connection c, boolean sqlServerOnly) throws SQLException {
        return rows(c, "SELECT id, amount, title, " + (sqlServerOnly ? "placed_at, ship_date::text" : "NULL, NULL")
                + ", paid, " + (sqlServerOnly ? "payload" : "NULL::bytea") + ", attrs::text, note FROM public.orders ORDER BY id", sqlServerOnly);
    }

    private static List<String> targetRows(Connection c, boolean sqlServerOnly) throws SQLException {
        return rows(c, "SELECT id, amount, title, " + (sqlServerOnly ? "placed_at, CONVERT(varchar(10), ship_date, 23)" : "NULL, NULL")
                + ", paid, " + (sqlServerOnly ? "payload" : "NULL") + ", attrs, note FROM dbo.orders ORDER BY id", sqlServerOnly);
    }

    private static List<String> rows(Connection c, String sql, boolean temporal) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(row(rs.getLong(1), rs.getBigDecimal(2), rs.getString(3),
                        temporal ? rs.getObject(4, OffsetDateTime.class) : null, rs.getString(5), rs.getBoolean(6),
                        rs.getBytes(7), rs.getString(8), rs.getString(9)));
            }
        }
        return rows;
    }

    private static String row(long id, BigDecimal amount, String title, OffsetDateTime placedAt, String shipDate, boolean paid,
                              byte[] payload, String attrs, String note) {
        return String.join("|", Long.toString(id), amount.toPlainString(), title,
                placedAt == null ? "null" : placedAt.withOffsetSameInstant(ZoneOffset.UTC).toString(), String.valueOf(shipDate),
                Boolean.toString(paid),
                payload == null ? "null" : HexFormat.of().formatHex(payload), String.valueOf(attrs), String.valueOf(note));
    }

}

package io.dpone.backfill.e2e;

import io.dpone.backfill.testsupport.mssql.SqlServerTestEngine;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import io.dpone.backfill.testsupport.schema.ShopSchema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole schema into SQL Server through the CLI (issue 36): a small shop written twice, in snake_case on PostgreSQL
 * and as a SQL Server author writes it (PascalCase, NVARCHAR, DATETIME2, DECIMAL, named keys): foreign keys both ways
 * (a supplier's preferred product, products by supplier), a self-reference (a product replaced by another), a
 * composite key (stock per warehouse and product) and a composite foreign key onto it (sales). {@code backfill
 * generate --target-type mssql} pairs the tables as SQL Server compares names and writes one publication group; each
 * file's run stops validated (exit 9) until the last, whose run swaps every table in one transaction.
 * <p>
 * Runs on the resolved T-SQL engine. On Babelfish: without the DATETIME2 column (temporal values through bulk copy
 * arrive corrupted there), and the swap stops at its first constraint rename ({@code sp_rename} of a constraint is
 * refused there): everything before it is proven there (pairing, loading, validation, the group's readiness, the keys
 * between members added and checked in the swap's transaction, all rolled back together), the publication itself
 * on SQL Server only, where this same test goes on to compare every table and every key.
 */
class SqlServerSchemaMigrationIT {
    @TempDir
    Path dir;

    private SqlServerTestEngine engine;
    private boolean sqlServer;
    private PostgresDatabase source;
    private String database;
    private CampaignFiles files;

    @BeforeEach
    void schemas() throws Exception {
        engine = SqlServerTestEngine.require();
        sqlServer = engine.kind().isSqlServer();
        System.out.println("SqlServerSchemaMigrationIT runs on " + engine);
        source = PostgresDatabase.fresh("shop_src");
        source.execute(ShopSchema.source(sqlServer));
        database = engine.freshDatabase("shop");
        target(ShopSchema.target(sqlServer));
        files = new CampaignFiles(dir, null, CampaignFiles.writeSecrets(dir, source.jdbcUrl(), engine.jdbcUrl(database),
                engine.user(), engine.password()));
    }

    @Test
    void generatedCampaignsOfOneGroupPublishTheWholeSchemaIntoSqlServerEveryTableEqualAndEveryKeyTrusted() throws Exception {
        List<Path> campaigns = generate();

        for (Path campaign : campaigns.subList(0, campaigns.size() - 1)) {
            String run = runCampaign(campaign, 9);
            assertThat(run).as(campaign.getFileName().toString()).contains("publication group shop").contains("waiting for");
        }
        assertThat(liveRows()).as("nothing published while the group waits").containsOnlyKeys(ShopSchema.TABLES.keySet())
                .allSatisfy((table, rows) -> assertThat(rows).as(table).isZero());
        LaunchedRun last = launch(campaigns.get(campaigns.size() - 1));
        if (!sqlServer) {
            // The swap reached its renames, after the keys between members were added and checked: Babelfish refuses
            // sp_rename of a constraint, and the whole group's transaction rolled back.
            assertThat(last.output()).as(last.output()).containsAnyOf("renaming object type Constraint",
                    "Provided '@objtype' is currently not supported");
            assertThat(liveRows()).as("nothing of the group published").allSatisfy((t, rows) -> assertThat(rows).as(t).isZero());
            assertThat(foreignKeysOfLiveTables()).as("the live tables' keys as they were").hasSize(7)
                    .allSatisfy(k -> assertThat(k).endsWith("|trusted"));
            throw new TestAbortedException("Babelfish gap (src-docs/babelfish-gaps.md): sp_rename refuses constraints,"
                    + " so the group's swap rolled back at its first rename (exit " + last.exit() + "); everything"
                    + " before it ran here, the publication runs on SQL Server only");
        }
        assertThat(last.exit()).as(last.output()).isZero();
        assertThat(last.output()).contains("HandoffCommitted");
        assertEqualToSource();
        assertThat(foreignKeysOfLiveTables()).containsExactlyInAnyOrderElementsOf(
                ShopSchema.TARGET_KEYS.stream().map(k -> k + "|trusted").toList());
        for (Path campaign : campaigns.subList(0, campaigns.size() - 1)) {
            assertThat(runCampaign(campaign, 0)).as("handed off").contains("HandoffCommitted");
        }
    }

    /**
     * A sale whose (warehouse, product) the source's stock lacks (the source declares no key there; the target does):
     * the group's swap adds the key between the members' loaded tables and counts the rows it would not hold before
     * anything changes; the sale member blocks naming them, and no table of the group is published.
     */
    @Test
    void aRowWhoseParentTheSourceLacksBlocksItsMemberNamingTheRowsAndNothingOfTheGroupIsPublished() throws Exception {
        source.execute("ALTER TABLE public.sale DROP CONSTRAINT sale_warehouse_id_product_id_fkey",
                "INSERT INTO public.sale (sale_id, warehouse_id, product_id, " + (sqlServer ? "sold_at, " : "")
                        + "amount) VALUES (900001, 1, 1, " + (sqlServer ? "timestamp '2024-05-01', " : "") + "1.00)",
                "ANALYZE public.sale");
        List<Path> campaigns = generate();
        Path sale = campaigns.stream().filter(p -> p.getFileName().toString().endsWith("-sale.yaml")).findFirst().orElseThrow();

        List<String> outputs = new ArrayList<>();
        for (Path campaign : campaigns) {
            outputs.add(launch(campaign).output());
        }
        String blocked = launch(sale).output();

        assertThat(String.join("\n", outputs)).as("the member that completes the group is held by the sale member")
                .containsIgnoringCase("group member dbo.sale holds the group's swap");
        assertThat(blocked).as("the sale member blocks, naming the key and the row").contains("Blocked")
                .containsIgnoringCase("FK_Sale_Stock").contains("1 row of")
                .containsIgnoringCase("(WarehouseId, ProductId)=(1, 1)");
        assertThat(liveRows()).as("nothing of the group published").allSatisfy((t, rows) -> assertThat(rows).as(t).isZero());
        assertThat(files.cli(Map.of(), Duration.ofSeconds(60), 0, "status", sale.toString(), "--secrets",
                files.secretsFile().toString())).contains("[Blocked]").contains("waiting for sale (Blocked)");
    }

    private List<Path> generate() throws Exception {
        Path out = dir.resolve("campaigns");
        String generated = files.cli(env(), Duration.ofSeconds(120), 0, "generate", "--source-secret", "src-db",
                "--target-secret", "tgt-db", "--target-type", "mssql", "--target-schema", "dbo", "--naming",
                "snake-to-pascal", "--prefix", "shop", "--parallel-workers", "2", "--secrets",
                files.secretsFile().toString(), "--out", out.toString());
        System.out.println(generated); // the closing note's evidence, in the surefire report's output
        assertThat(generated).contains("6 table(s) paired").contains("publication group shop: all 6 campaigns publish in one transaction");
        List<Path> campaigns;
        try (Stream<Path> listed = Files.list(out)) {
            campaigns = listed.sorted().toList();
        }
        assertThat(campaigns).hasSize(6);
        Path product = campaigns.stream().filter(p -> p.getFileName().toString().endsWith("-product.yaml")).findFirst().orElseThrow();
        // Names as the target's catalog spells them: SQL Server as created, Babelfish in lower case (a listed gap);
        // the database compares them case-insensitively either way.
        assertThat(Files.readString(product)).contains("type: mssql").containsIgnoringCase("table: \"Product\"")
                .containsIgnoringCase("In a foreign-key cycle with Supplier").contains("name: \"shop\"");
        return campaigns;
    }

    private record LaunchedRun(int exit, String output) {
    }

    private LaunchedRun launch(Path campaign) throws Exception {
        try (LaunchedProcess p = LaunchedProcess.start(dir, env(), "run", campaign.toString(), "--secrets",
                files.secretsFile().toString(), "--log-dir", dir.resolve("lanes").toString())) {
            int code = p.awaitExit(Duration.ofSeconds(240));
            return new LaunchedRun(code, p.output());
        }
    }

    private String runCampaign(Path campaign, int exit) throws Exception {
        LaunchedRun run = launch(campaign);
        assertThat(run.exit()).as(campaign + "\n" + run.output()).isEqualTo(exit);
        return run.output();
    }

    /** Every table equal to its source, row by row, compared as text column by column. */
    private void assertEqualToSource() throws Exception {
        for (String table : ShopSchema.TABLES.keySet()) {
            assertThat(targetStrings(ShopSchema.targetRows(table))).as(table)
                    .isEqualTo(source.queryForStrings(ShopSchema.sourceRows(table)));
        }
        assertThat(targetStrings("SELECT CONCAT(SaleId, N'|', FORMAT(SoldAt, N'yyyy-MM-dd HH:mm:ss.ffffff'))"
                + " FROM dbo.Sale ORDER BY SaleId")).as("sold_at to the microsecond").isEqualTo(source.queryForStrings(
                "SELECT sale_id || '|' || to_char(sold_at, 'YYYY-MM-DD HH24:MI:SS.US') FROM public.sale ORDER BY sale_id"));
    }

    /** Rows of each live target table, by source table name. */
    private Map<String, Long> liveRows() throws SQLException {
        Map<String, Long> rows = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> table : ShopSchema.TABLES.entrySet()) {
            rows.put(table.getKey(), Long.parseLong(targetStrings("SELECT CONVERT(nvarchar(20), COUNT_BIG(*)) FROM dbo."
                    + table.getValue()[1]).get(0)));
        }
        return rows;
    }

    /** name|referencing->referenced|trusted of every key whose both ends are live tables (never a backup). */
    private List<String> foreignKeysOfLiveTables() throws SQLException {
        return targetStrings(ShopSchema.LIVE_KEYS);
    }

    private void target(String... statements) throws SQLException {
        try (Connection c = engine.connect(database); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private List<String> targetStrings(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection c = engine.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    private static Map<String, String> env() {
        return Map.of("BACKFILL_LEASE_TTL_SECONDS", "5", "BACKFILL_LEASE_RENEW_SECONDS", "1",
                "BACKFILL_DRAIN_SECONDS", "10", "BACKFILL_LOCK_TIMEOUT_SECONDS", "5");
    }
}

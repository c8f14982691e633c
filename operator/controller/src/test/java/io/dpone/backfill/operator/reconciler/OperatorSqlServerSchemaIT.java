package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.cli.plan.GenerateCommand;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.status.StatusJson;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.CampaignSecrets;
import io.dpone.backfill.operator.support.LaneRunner;
import io.dpone.backfill.operator.support.MockCluster;
import io.dpone.backfill.operator.support.TestOperator;
import io.dpone.backfill.testsupport.mssql.SqlServerTestEngine;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import io.dpone.backfill.testsupport.schema.ShopSchema;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
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
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 36 through the operator on the mock API server: the shop schema ({@link ShopSchema}) generated with
 * {@code --target-type mssql} into one publication group and applied, every campaign running one pod per lane into the
 * resolved T-SQL engine; the members wait for each other (AwaitingGroup) and the group publishes in one transaction,
 * every table equal to its source and every key on the live tables trusted. On Babelfish (no temporal column: its
 * bulk-copy gap) the swap stops at its first constraint rename, which Babelfish refuses: the operator reports it as
 * Degraded and publishes nothing; the publication runs on SQL Server only.
 */
class OperatorSqlServerSchemaIT {
    private static final String NS = "backfill";
    private static final List<String> RENAME_GAP = List.of("renaming object type Constraint",
            "Provided '@objtype' is currently not supported");

    @TempDir
    Path logs;

    @Test
    void theGeneratedGroupOfAWholeSchemaPublishesIntoSqlServerThroughTheOperator() throws Exception {
        SqlServerTestEngine engine = SqlServerTestEngine.require();
        boolean sqlServer = engine.kind().isSqlServer();
        System.out.println("OperatorSqlServerSchemaIT runs on " + engine);
        PostgresDatabase source = PostgresDatabase.fresh("opshop");
        source.execute(ShopSchema.source(sqlServer));
        String database = engine.freshDatabase("opshop");
        try (Connection c = engine.connect(database); Statement s = c.createStatement()) {
            for (String sql : ShopSchema.target(sqlServer)) {
                s.execute(sql);
            }
        }
        List<Path> files = generate(source, engine, database);
        assertThat(files).hasSize(6);

        try (MockCluster cluster = new MockCluster(NS); LaneRunner lanes = new LaneRunner(cluster.client, NS, logs);
             TestOperator operator = new TestOperator(cluster.client, NS, "operator-a")) {
            cluster.client.secrets().inNamespace(NS).resource(secret("src-db", Map.of("jdbcUrl", source.jdbcUrl()))).create();
            Map<String, String> target = new LinkedHashMap<>();
            target.put("jdbcUrl", engine.jdbcUrl(database));
            target.put("user", engine.user());
            target.put("password", engine.password());
            cluster.client.secrets().inNamespace(NS).resource(secret("tgt-db", target)).create();
            List<String> names = new ArrayList<>();
            for (Path file : files) {
                BackfillCampaign campaign = Serialization.unmarshal(Files.readString(file), BackfillCampaign.class);
                campaign.getMetadata().setNamespace(NS);
                cluster.client.resource(campaign).create();
                names.add(campaign.getMetadata().getName());
            }
            String first = names.get(0);
            // Waiting for the group can pass between two passes unseen: the last member validated, the swap ran (and on
            // Babelfish failed at its first rename) before this member's status said it waited.
            Await.until(Duration.ofSeconds(180), () -> condition(cluster, first, CampaignConditions.AWAITING_GROUP)
                            .map(c -> "True".equals(c.getStatus()) || "GroupPublished".equals(c.getReason())).orElse(false)
                            || (!sqlServer && renameRefused(cluster, names).isPresent()),
                    () -> "status " + StatusJson.write(status(cluster, first)) + "\nlanes:\n" + lanes.allOutput());

            if (!sqlServer) {
                Await.until(Duration.ofSeconds(300), () -> renameRefused(cluster, names).isPresent(),
                        () -> names.stream().map(n -> n + ": " + StatusJson.write(status(cluster, n))).toList()
                                + "\nlanes:\n" + lanes.allOutput());
                assertThat(liveRows(engine, database)).as("nothing of the group published").containsOnly(0L);
                throw new TestAbortedException("Babelfish gap (src-docs/babelfish-gaps.md): sp_rename refuses"
                        + " constraints, so the group's swap rolled back at its first rename; the operator says so: "
                        + renameRefused(cluster, names).orElseThrow() + ". The publication runs on SQL Server only");
            }
            for (String name : names) {
                Await.until(Duration.ofSeconds(240), () -> status(cluster, name) != null
                                && status(cluster, name).getPhase() == CampaignPhase.HandoffCommitted,
                        () -> name + ": " + StatusJson.write(status(cluster, name)) + "\nlanes:\n" + lanes.allOutput());
            }
            assertThat(condition(cluster, first, CampaignConditions.AWAITING_GROUP).orElseThrow().getReason())
                    .isEqualTo("GroupPublished");
        }
        try (Connection tgt = engine.connect(database)) {
            for (String table : ShopSchema.TABLES.keySet()) {
                assertThat(strings(tgt, ShopSchema.targetRows(table))).as(table)
                        .isEqualTo(source.queryForStrings(ShopSchema.sourceRows(table)));
            }
            assertThat(strings(tgt, ShopSchema.LIVE_KEYS)).containsExactlyInAnyOrderElementsOf(
                    ShopSchema.TARGET_KEYS.stream().map(k -> k + "|trusted").toList());
        }
    }

    /** The first Degraded message of a member that names Babelfish's refusal of a constraint rename. */
    private static Optional<String> renameRefused(MockCluster cluster, List<String> names) {
        for (String name : names) {
            Optional<String> message = condition(cluster, name, CampaignConditions.DEGRADED)
                    .filter(c -> "True".equals(c.getStatus())).map(c -> c.getMessage())
                    .filter(m -> RENAME_GAP.stream().anyMatch(m::contains));
            if (message.isPresent()) {
                return message;
            }
        }
        return Optional.empty();
    }

    private List<Path> generate(PostgresDatabase source, SqlServerTestEngine engine, String database) throws Exception {
        Path secrets = Files.writeString(logs.resolve("secrets.yaml"), """
                apiVersion: v1
                kind: Secret
                metadata: {name: src-db}
                stringData: {jdbcUrl: "%s"}
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: tgt-db}
                stringData: {jdbcUrl: "%s", user: "%s", password: "%s"}
                """.formatted(source.jdbcUrl(), engine.jdbcUrl(database), engine.user(), engine.password()));
        Path out = logs.resolve("campaigns");
        StringWriter printed = new StringWriter();
        CommandLine cli = new CommandLine(new GenerateCommand());
        cli.setOut(new PrintWriter(printed));
        cli.setErr(new PrintWriter(printed));
        int exit = cli.execute("--source-secret", "src-db", "--target-secret", "tgt-db", "--target-type", "mssql",
                "--target-schema", "dbo", "--naming", "snake-to-pascal", "--prefix", "shop", "--parallel-workers", "2",
                "--secrets", secrets.toString(), "--out", out.toString());
        assertThat(exit).as(printed.toString()).isZero();
        List<Path> files;
        try (Stream<Path> listed = Files.list(out)) {
            files = listed.sorted().toList();
        }
        for (Path file : files) {
            assertThat(Files.readString(file)).as(file.toString()).contains("type: mssql").contains("name: \"shop\"");
        }
        return files;
    }

    private static Secret secret(String name, Map<String, String> data) {
        return CampaignSecrets.of(NS, name, data);
    }

    private static BackfillCampaignStatus status(MockCluster cluster, String name) {
        BackfillCampaign c = cluster.client.resources(BackfillCampaign.class).inNamespace(NS).withName(name).get();
        return c == null ? null : c.getStatus();
    }

    private static Optional<io.dpone.backfill.core.campaign.CampaignCondition> condition(MockCluster cluster, String name, String type) {
        BackfillCampaignStatus s = status(cluster, name);
        return s == null ? Optional.empty() : ConditionSet.find(s.getConditions(), type);
    }

    private static List<Long> liveRows(SqlServerTestEngine engine, String database) throws SQLException {
        List<Long> rows = new ArrayList<>();
        try (Connection c = engine.connect(database)) {
            for (String[] t : ShopSchema.TABLES.values()) {
                rows.add(Long.parseLong(strings(c, "SELECT CONVERT(nvarchar(20), COUNT_BIG(*)) FROM dbo." + t[1]).get(0)));
            }
        }
        return rows;
    }

    private static List<String> strings(Connection c, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}

package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.StatusJson;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.CampaignSecrets;
import io.dpone.backfill.operator.support.LaneRunner;
import io.dpone.backfill.operator.support.MockCluster;
import io.dpone.backfill.operator.support.TestOperator;
import io.dpone.backfill.testsupport.mssql.SqlServerTestEngine;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL to SQL Server through the operator: the applied campaign runs one pod per lane (real `backfill lane`
 * processes played by the lane runner) into the resolved T-SQL engine, to HandoffCommitted, and the published table
 * equals the source. On Babelfish the columns stay within what it takes through bulk copy (no temporal, binary or
 * key constraint; PostgresToSqlServerIT says why); the test prints the engine.
 */
class OperatorSqlServerIT {
    private static final String NS = "backfill";
    private static final int ROWS = 6_000;

    @TempDir
    Path logs;

    @Test
    void anAppliedSqlServerCampaignPublishesExactlyTheSourceAndHandsOff() throws Exception {
        SqlServerTestEngine engine = SqlServerTestEngine.require();
        System.out.println("OperatorSqlServerIT runs on " + engine);
        PostgresDatabase source = PostgresDatabase.fresh("opmssql");
        source.execute("CREATE TABLE public.orders (id bigint PRIMARY KEY, amount numeric(12,2) NOT NULL, title text NOT NULL,"
                + " paid boolean NOT NULL, attrs jsonb, note text)");
        source.execute("INSERT INTO public.orders SELECT i, round(mod(i * 3.17, 10000), 2), 'order ' || i || ' ✓ Grüße',"
                + " mod(i, 2) = 0, CASE WHEN mod(i, 5) = 0 THEN NULL ELSE jsonb_build_object('n', i) END,"
                + " CASE WHEN mod(i, 3) = 0 THEN NULL ELSE 'note ' || i END FROM generate_series(1, " + ROWS + ") i");
        String database = engine.freshDatabase("operator");
        try (Connection c = engine.connect(database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE dbo.orders (id bigint NOT NULL, amount decimal(12,2) NOT NULL, title nvarchar(200) NOT NULL,"
                    + " paid bit NOT NULL, attrs nvarchar(max) NULL, note nvarchar(100) NULL)");
        }
        try (MockCluster cluster = new MockCluster(NS); LaneRunner lanes = new LaneRunner(cluster.client, NS, logs);
             TestOperator operator = new TestOperator(cluster.client, NS, "operator-a")) {
            cluster.client.secrets().inNamespace(NS).resource(secret("src-db", Map.of("jdbcUrl", source.jdbcUrl()))).create();
            Map<String, String> target = new LinkedHashMap<>();
            target.put("jdbcUrl", engine.jdbcUrl(database));
            target.put("user", engine.user());
            target.put("password", engine.password());
            cluster.client.secrets().inNamespace(NS).resource(secret("tgt-db", target)).create();
            cluster.client.resource(Serialization.unmarshal("""
                    apiVersion: backfill.dpone.io/v1alpha1
                    kind: BackfillCampaign
                    metadata: {name: orders, namespace: %s}
                    spec:
                      backfillId: orders_mssql_v1
                      source: {type: postgres, connectionSecretRef: {name: src-db}, schema: public, table: orders}
                      target: {type: mssql, connectionSecretRef: {name: tgt-db}, schema: dbo, table: orders}
                      uniqueKey: [id]
                      chunk: {column: id, kind: integer, buckets: 8, lowerBound: 1, upperBound: %d}
                      parallelWorkers: 2
                      state: {schema: backfill_state}
                      publication: {mode: shadow_swap}
                    """.formatted(NS, ROWS), BackfillCampaign.class)).create();

            Await.until(Duration.ofSeconds(180), () -> phase(cluster, "orders") == CampaignPhase.HandoffCommitted,
                    () -> "status " + StatusJson.write(status(cluster, "orders")) + "\nlanes:\n" + lanes.allOutput());

            BackfillCampaignStatus status = status(cluster, "orders");
            assertThat(status.getProgress().getCommittedChunks()).isEqualTo(8);
            assertThat(status.getProgress().getRowsLoaded()).isEqualTo(ROWS);
            assertThat(status.getPublication().getReceiptId()).isNotBlank();
            assertThat(status.getHandoff().getReceiptId()).isNotBlank();
        }
        try (Connection src = source.connect(); Connection tgt = engine.connect(database)) {
            assertThat(rows(tgt, "SELECT id, amount, title, paid, attrs, note FROM dbo.orders ORDER BY id"))
                    .isEqualTo(rows(src, "SELECT id, amount, title, paid, attrs::text, note FROM public.orders ORDER BY id"));
        }
    }

    private static Secret secret(String name, Map<String, String> data) {
        return CampaignSecrets.of(NS, name, data);
    }

    private static BackfillCampaignStatus status(MockCluster cluster, String name) {
        BackfillCampaign c = cluster.client.resources(BackfillCampaign.class).inNamespace(NS).withName(name).get();
        return c == null ? null : c.getStatus();
    }

    private static CampaignPhase phase(MockCluster cluster, String name) {
        BackfillCampaignStatus s = status(cluster, name);
        return s == null ? null : s.getPhase();
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(rs.getLong(1) + "|" + rs.getBigDecimal(2).toPlainString() + "|" + rs.getString(3) + "|"
                        + rs.getBoolean(4) + "|" + rs.getString(5) + "|" + rs.getString(6));
            }
        }
        return rows;
    }
}

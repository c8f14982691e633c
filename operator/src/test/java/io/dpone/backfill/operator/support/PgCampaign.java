package io.dpone.backfill.operator.support;

import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.pgembedded.EmbeddedPostgres;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A PostgreSQL-to-PostgreSQL campaign on the shared embedded server: fresh source and target databases, the
 * connection Secrets in the mock cluster ({@code data}, base64: the mock does not turn stringData into data), and
 * the campaign resource a user would apply.
 */
public final class PgCampaign {
    public final EmbeddedPostgres pg = SharedEmbeddedPostgres.get();
    public final String sourceDb = SharedEmbeddedPostgres.freshDatabase("opsrc");
    public final String targetDb = SharedEmbeddedPostgres.freshDatabase("optgt");

    public PgCampaign(int rows) throws SQLException {
        exec(sourceDb, "CREATE TABLE public.items (id uuid NOT NULL PRIMARY KEY, qty integer NOT NULL, note text)",
                "INSERT INTO public.items SELECT gen_random_uuid(), i, 'row ' || i FROM generate_series(1, " + rows + ") i");
        exec(targetDb, "CREATE TABLE public.items (id uuid NOT NULL PRIMARY KEY, qty integer NOT NULL, note text)",
                "INSERT INTO public.items VALUES ('00000000-0000-0000-0000-000000000001', -1, 'the old table')");
    }

    public void secrets(KubernetesClient client, String namespace) {
        client.secrets().inNamespace(namespace).resource(secret(namespace, "src-db", pg.jdbcUrl(sourceDb))).create();
        client.secrets().inNamespace(namespace).resource(secret(namespace, "tgt-db", pg.jdbcUrl(targetDb))).create();
    }

    private static Secret secret(String namespace, String name, String url) {
        return new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withData(Map.of("jdbcUrl", Base64.getEncoder().encodeToString(url.getBytes(StandardCharsets.UTF_8)))).build();
    }

    /** The campaign resource; {@code extraSpec} lines are appended to the spec (two-space indented YAML). */
    public static BackfillCampaign campaign(String namespace, String name, String backfillId, int buckets, int lanes, String extraSpec) {
        String yaml = """
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata: {name: %s, namespace: %s}
                spec:
                  backfillId: %s
                  source: {connectionSecretRef: {name: src-db}, table: items}
                  target: {type: postgres, connectionSecretRef: {name: tgt-db}, table: items}
                  uniqueKey: [id]
                  chunk: {column: id, kind: uuid, buckets: %d}
                  parallelWorkers: %d
                  publication: {mode: shadow_swap}
                %s""".formatted(name, namespace, backfillId, buckets, lanes, extraSpec);
        return io.fabric8.kubernetes.client.utils.Serialization.unmarshal(yaml, BackfillCampaign.class);
    }

    public void exec(String db, String... sql) throws SQLException {
        try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }

    public long target(String sql) throws SQLException {
        return scalar(targetDb, sql);
    }

    public long source(String sql) throws SQLException {
        return scalar(sourceDb, sql);
    }

    private long scalar(String db, String sql) throws SQLException {
        try (Connection c = pg.connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** (id, qty, note) of every row, sorted. */
    public List<String> rows(boolean target) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = pg.connect(target ? targetDb : sourceDb); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id::text || '|' || qty || '|' || coalesce(note, '') FROM public.items ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    public boolean targetHasSchema(String schema) throws SQLException {
        return target("SELECT count(*) FROM information_schema.schemata WHERE schema_name = '" + schema + "'") > 0;
    }
}

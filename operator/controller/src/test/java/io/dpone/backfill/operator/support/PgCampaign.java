package io.dpone.backfill.operator.support;

import io.dpone.backfill.operator.driver.SecretResolver;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Base64;
import java.util.Map;

/**
 * A PostgreSQL-to-PostgreSQL campaign on the shared embedded server: fresh source and target databases holding
 * {@link ItemsTable}, the connection Secrets in the mock cluster ({@code data}, base64: the mock does not turn
 * stringData into data), and the campaign resource a user would apply.
 */
public final class PgCampaign {
    public final PostgresDatabase source = PostgresDatabase.fresh("opsrc");
    public final PostgresDatabase target = PostgresDatabase.fresh("optgt");

    public PgCampaign(int rows) throws SQLException {
        ItemsTable.createWithRows(source, rows);
        ItemsTable.createWithOldRow(target);
    }

    public void secrets(KubernetesClient client, String namespace) {
        secret(client, namespace, "src-db", Map.of("jdbcUrl", source.jdbcUrl()));
        secret(client, namespace, "tgt-db", Map.of("jdbcUrl", target.jdbcUrl()));
    }

    /** A connection Secret with these keys and values, open to campaigns (SecretResolver.CAMPAIGN_USE_LABEL). */
    public void secret(KubernetesClient client, String namespace, String name, Map<String, String> values) {
        Map<String, String> data = new java.util.TreeMap<>();
        values.forEach((k, v) -> data.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
        Secret secret = new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .addToLabels(SecretResolver.CAMPAIGN_USE_LABEL, "true").endMetadata()
                .withData(data).build();
        client.secrets().inNamespace(namespace).resource(secret).create();
    }

    /** The campaign resource; {@code extraSpec} lines are appended to the spec (two-space indented YAML). */
    public static BackfillCampaign campaign(String namespace, String name, String backfillId, int buckets, int lanes, String extraSpec) {
        String yaml = CampaignYaml.campaign(backfillId).name(name).namespace(namespace).chunk(CampaignYaml.uuidChunks(buckets))
                .parallelWorkers(lanes).shadowSwap().extraSpec(extraSpec).render();
        return Serialization.unmarshal(yaml, BackfillCampaign.class);
    }
}

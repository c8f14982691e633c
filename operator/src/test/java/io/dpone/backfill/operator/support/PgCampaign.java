package io.dpone.backfill.operator.support;

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
        client.secrets().inNamespace(namespace).resource(secret(namespace, "src-db", source.jdbcUrl())).create();
        client.secrets().inNamespace(namespace).resource(secret(namespace, "tgt-db", target.jdbcUrl())).create();
    }

    private static Secret secret(String namespace, String name, String url) {
        return new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withData(Map.of("jdbcUrl", Base64.getEncoder().encodeToString(url.getBytes(StandardCharsets.UTF_8)))).build();
    }

    /** The campaign resource; {@code extraSpec} lines are appended to the spec (two-space indented YAML). */
    public static BackfillCampaign campaign(String namespace, String name, String backfillId, int buckets, int lanes, String extraSpec) {
        String yaml = CampaignYaml.campaign(backfillId).name(name).namespace(namespace).chunk(CampaignYaml.uuidChunks(buckets))
                .parallelWorkers(lanes).shadowSwap().extraSpec(extraSpec).render();
        return Serialization.unmarshal(yaml, BackfillCampaign.class);
    }
}

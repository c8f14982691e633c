package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.driver.SecretResolver;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ADR 0045: the operator uses a Secret for a campaign only when the Secret says so (its label). A campaign's author
 * who may not read another application's Secret cannot have the operator connect with it, copy its database into a
 * target the author chose, or hand its values to lane pods.
 */
class SecretOptInIT extends OperatorSuite {
    @Test
    void aSecretWithoutTheLabelIsNotUsedUntilItsOwnerLabelsIt() throws Exception {
        harness(1000);
        // Another application's credentials, in the same namespace, never meant for campaigns.
        Secret theirs = new SecretBuilder().withNewMetadata().withName("billing-db").withNamespace(OperatorHarness.NS).endMetadata()
                .withData(Map.of("jdbcUrl", Base64.getEncoder().encodeToString(h.db.source.jdbcUrl().getBytes(StandardCharsets.UTF_8))))
                .build();
        h.client.secrets().inNamespace(OperatorHarness.NS).resource(theirs).create();
        var campaign = PgCampaign.campaign(OperatorHarness.NS, "items", "items_v1", 8, 2, "  suspend: true\n");
        campaign.getSpec().getSource().getConnectionSecretRef().setName("billing-db");
        h.apply(campaign);
        h.startOperator("operator-a");

        Await.until(Duration.ofSeconds(30), () -> notOptedIn() != null, () -> "no SecretNotOptedIn condition: " + h.status("items"));
        assertThat(notOptedIn().getMessage()).contains("Secret " + OperatorHarness.NS + "/billing-db")
                .contains(SecretResolver.CAMPAIGN_USE_LABEL + "=true").contains("kubectl label secret");
        assertThat(h.status("items").getRecommendedAction()).contains("let campaigns use the connection Secret");
        h.awaitEvents("SecretNotOptedIn");
        Thread.sleep(1500);
        assertThat(h.pods()).isEmpty();
        assertThat(h.db.target.hasSchema("backfill_state")).as("no connection was made: no ledger").isFalse();

        h.client.secrets().inNamespace(OperatorHarness.NS).withName("billing-db")
                .edit(s -> new SecretBuilder(s).editMetadata().addToLabels(SecretResolver.CAMPAIGN_USE_LABEL, "true").endMetadata().build());

        h.awaitPhase("items", CampaignPhase.Suspended, Duration.ofSeconds(60));
        assertThat(h.db.target.hasSchema("backfill_state")).isTrue();
    }

    private CampaignCondition notOptedIn() {
        var status = h.status("items");
        return status == null || status.getConditions() == null ? null
                : status.getConditions().stream().filter(c -> "SecretNotOptedIn".equals(c.getReason())).findFirst().orElse(null);
    }
}

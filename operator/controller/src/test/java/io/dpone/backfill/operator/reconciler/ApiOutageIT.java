package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API server answers 503 to every status write for 45 s (a restart, an overload). Fabric8 retries a 5xx itself
 * (fabric8io/kubernetes-client Config: DEFAULT_REQUEST_RETRY_BACKOFFLIMIT 10 from 100 ms, about 100 s); this test
 * turns that off so the outage outlasts what the client absorbs, as a longer outage does with the defaults. The
 * failure then ends the pass: JOSDK's own retry (GradualRetry: 5 attempts from 2 s, x1.5, about 26 s) would give
 * up and leave a campaign with no other event (suspended: no lane pods) alone for the maximum reconciliation
 * interval. The reconciler reschedules itself with back-off instead, so the status is written soon after.
 */
class ApiOutageIT extends OperatorSuite {
    @Test
    void aCampaignIsReconciledAgainSoonAfterAnApiOutageLongerThanJosdksRetry() throws Exception {
        harness(1000);
        Instant back = Instant.now().plusSeconds(45);
        h.cluster.admission.failStatusWritesUntil(back, 503);
        try (KubernetesClient noClientRetry = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(h.client.getConfiguration()).withRequestRetryBackoffLimit(0).build()).build();
             TestOperator operator = new TestOperator(noClientRetry, OperatorHarness.NS, TestOperator.settings("operator-a"))) {
            h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_v1", 8, 1, "  suspend: true\n"));

            Thread.sleep(Math.max(0, Duration.between(Instant.now(), back).toMillis()));
            assertThat(h.status("items")).as("no status could be written during the outage").isNull();
            assertThat(h.cluster.admission.statusOutages()).as("passes kept trying during the outage").isGreaterThanOrEqualTo(4);

            h.awaitPhase("items", CampaignPhase.Suspended, Duration.ofSeconds(20));
        }
    }
}

package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Deleting a loading campaign removes its lane pods and its hold on the database, and leaves every table in place. */
class CampaignDeletionIT extends OperatorSuite {
    @Test
    void deletingACampaignRemovesItsPodsAndKeepsDataShadowAndLedger() throws Exception {
        harness(200_000);
        TestOperator operator = h.startOperator("operator-a");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_delete", 64, 1, ""));
        h.awaitPhase("items", CampaignPhase.Loading, Duration.ofSeconds(60));
        Await.until(Duration.ofSeconds(30), () -> !h.pods().isEmpty(), () -> "no lane pod");

        h.client.resources(BackfillCampaign.class).inNamespace(OperatorHarness.NS).withName("items").delete();

        Await.until(Duration.ofSeconds(30), () -> h.get("items") == null && h.pods().isEmpty(),
                () -> "campaign " + (h.get("items") == null ? "gone" : "still there") + ", pods " + h.pods().size());
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.campaign")).as("ledger kept").isEqualTo(1);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.campaign WHERE lease_owner IS NULL OR lease_expires < now()"))
                .as("campaign lease released").isEqualTo(1);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM pg_class WHERE relname = 'items__bf_shadow'")).as("shadow kept").isEqualTo(1);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM public.items")).as("live table untouched").isEqualTo(1);
        assertThat(operator.components.holds().openKeys()).isEmpty();
    }
}

package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A publication window through the operator (issue 28): a validated campaign outside its window stays in
 * Publishing with nothing swapped, its Reconciling condition says it waits for the window (kstatus Current, so a
 * GitOps wait does not time out on it), and recommendedAction says when it opens.
 */
class PublicationWindowIT extends OperatorSuite {
    @Test
    void aValidatedCampaignOutsideItsWindowWaitsInPublishingAndSaysUntilWhen() throws Exception {
        harness(1500);
        // A window that opens two hours from now and lasts one: closed for the whole test.
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        DateTimeFormatter hhmm = DateTimeFormatter.ofPattern("HH:mm");
        String from = now.plusHours(2).format(hhmm);
        String to = now.plusHours(3).format(hhmm);
        String yaml = CampaignYaml.campaign("items_window").name("items").namespace(OperatorHarness.NS)
                .chunk(CampaignYaml.uuidChunks(4)).parallelWorkers(2)
                .extraSpec("  publication: {mode: shadow_swap, window: {from: '" + from + "', to: '" + to + "'}}\n").render();
        h.startOperator("operator-a");
        h.apply(Serialization.unmarshal(yaml, BackfillCampaign.class));

        Await.until(Duration.ofSeconds(60), () -> {
            BackfillCampaignStatus s = h.status("items");
            return s != null && ConditionSet.find(s.getConditions(), CampaignConditions.RECONCILING)
                    .map(c -> CampaignConditions.AWAITING_WINDOW.equals(c.getReason())).orElse(false);
        }, () -> String.valueOf(h.status("items")));
        BackfillCampaignStatus waiting = h.status("items");
        assertThat(waiting.getPhase()).isEqualTo(CampaignPhase.Publishing);
        assertThat(ConditionSet.find(waiting.getConditions(), CampaignConditions.RECONCILING).orElseThrow().getStatus())
                .isEqualTo("False");
        assertThat(ConditionSet.find(waiting.getConditions(), CampaignConditions.STALLED).orElseThrow().getStatus())
                .isEqualTo("False");
        assertThat(waiting.getRecommendedAction()).contains("publication window " + from + "-" + to + " UTC");
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM public.items")).as("the old table is still live").isEqualTo(1);
    }
}

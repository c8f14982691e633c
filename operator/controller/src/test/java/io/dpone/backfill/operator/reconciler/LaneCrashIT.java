package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.lanes.LaneLabels;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.fabric8.kubernetes.api.model.Event;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The only lane process is SIGKILLed in the middle of copying chunk 3: its pod fails, the operator replaces it within the
 * budget, and the campaign completes with every chunk committed exactly once.
 */
class LaneCrashIT extends OperatorSuite {
    @Test
    void aKilledLanePodIsReplacedAndTheCampaignCompletesExactlyOnce() throws Exception {
        harness(12_000);
        String first = LaneLabels.podName("items", 0, 0);
        h.lanes.withExtraEnv(pod -> pod.getMetadata().getName().equals(first) ? Map.of("BACKFILL_FAULT", "mid-copy:3") : Map.of());
        h.startOperator("operator-a");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_crash", 8, 1, ""));

        Await.until(Duration.ofSeconds(60), () -> h.lanes.log(first) != null, () -> "pod " + first + " never started");
        h.lanes.awaitOutput(first, "FAULT mid-copy chunk=3", Duration.ofSeconds(60));
        h.lanes.signal(first, "KILL");

        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));
        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).isEqualTo(8);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt WHERE chunk_id = 3")).isEqualTo(1);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM public.items")).isEqualTo(12_000);
        assertThat(h.events().stream().filter(e -> "LanePodReplaced".equals(e.getReason())).map(Event::getMessage))
                .singleElement().asString().contains(first).contains("exit 137");
        assertThat(h.lanes.output(LaneLabels.podName("items", 0, 1))).as("the replacement lane ran").isNotEmpty();
    }
}

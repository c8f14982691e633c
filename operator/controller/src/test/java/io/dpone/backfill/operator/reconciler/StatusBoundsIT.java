package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.status.StatusJson;
import io.dpone.backfill.operator.support.PgCampaign;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The status is a bounded projection: a 4096-chunk plan gives a status of the same small size, never rewritten idly. */
class StatusBoundsIT extends OperatorSuite {
    @Test
    void aStatusOf4096ChunksIsSmallAndNotRewrittenWhenNothingChanges() throws Exception {
        harness(100);
        h.startOperator("operator-a");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "wide", "items_wide", 4096, 4, "  suspend: true\n"));
        h.awaitPhase("wide", CampaignPhase.Suspended, Duration.ofSeconds(60));

        BackfillCampaignStatus status = h.status("wide");
        assertThat(status.getProgress().getTotalChunks()).isEqualTo(4096);
        assertThat(status.getProgress().getPendingChunks()).isEqualTo(4096);
        int size = StatusJson.size(status);
        assertThat(size).as("status bytes: " + StatusJson.write(status)).isLessThan(4096);

        // Suspended campaigns are reconciled every few seconds; the projection is identical, so nothing is patched.
        String version = h.get("wide").getMetadata().getResourceVersion();
        Thread.sleep(3000);
        assertThat(h.get("wide").getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(h.status("wide")).isEqualTo(status);
    }
}

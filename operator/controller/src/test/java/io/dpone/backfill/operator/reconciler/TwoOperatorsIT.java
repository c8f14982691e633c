package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leader election is not the fence: with two operator instances reconciling the same campaign at once (a split
 * brain that leader election should prevent), only the holder of the campaign lease in the ledger drives it. The
 * campaign is loaded and published exactly once.
 */
class TwoOperatorsIT extends OperatorSuite {
    @Test
    void onlyTheCampaignLeaseHolderDrivesAndPublishesOnce() throws Exception {
        harness(20_000);
        TestOperator a = h.startOperator("operator-a");
        TestOperator b = h.startOperator("operator-b");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_twice", 16, 2, ""));

        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));

        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt")).isEqualTo(1);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.handoff_receipt")).isEqualTo(1);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).isEqualTo(16);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE epoch > 1")).isZero();
        assertThat(h.events().stream().filter(e -> "LanePodReplaced".equals(e.getReason()))).isEmpty();
        Await.until(Duration.ofSeconds(10), () -> a.components.holds().openKeys().isEmpty() && b.components.holds().openKeys().isEmpty(),
                () -> "a settled campaign holds no session in either operator");
    }
}

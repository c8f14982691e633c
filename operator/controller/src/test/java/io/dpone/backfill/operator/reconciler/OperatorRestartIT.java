package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator is restarted while lanes load: the lane pods keep running, the new instance takes the campaign lease
 * and drives the same run to its handoff, and no chunk is loaded twice.
 */
class OperatorRestartIT extends OperatorSuite {
    @Test
    void aRestartedOperatorResumesTheCampaignWithoutDuplicateWork() throws Exception {
        harness(200_000);
        TestOperator first = h.startOperator("operator-a");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_restart", 64, 1, ""));
        Await.until(Duration.ofSeconds(60), () -> h.db.target.queryForLong("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'backfill_state' AND table_name = 'chunk_receipt'") > 0
                && h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt") >= 2, () -> "no chunk committed");
        Set<String> lanesBefore = h.pods().stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        first.close();
        long committedAtRestart = h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt");
        assertThat(committedAtRestart).as("the restart happened mid-loading").isLessThan(64);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.campaign WHERE phase = 'Loading'")).isEqualTo(1);

        TestOperator second = h.startOperator("operator-b");
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(120));

        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).isEqualTo(64);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE epoch > 1"))
                .as("no chunk was claimed twice: the lanes kept running across the restart").isZero();
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.campaign WHERE lease_owner IS NOT NULL AND lease_owner <> 'operator-b'"))
                .isZero();
        assertThat(h.events().stream().filter(e -> "LanePodReplaced".equals(e.getReason()))).isEmpty();
        assertThat(lanesBefore).as("lanes existed before the restart").isNotEmpty();
        assertThat(second.components.holds().openKeys()).as("a settled campaign holds no session").isEmpty();
    }
}

package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.status.StatusJson;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pass that commits work and then fails transiently: a reader holds the live table, so every swap waits out its
 * lock timeout (3 s here) and fails. The status says where the ledger is (the load done, the campaign at its swap)
 * with Degraded naming the failure, not the phase the last pass that succeeded wrote; once the reader lets go, the
 * campaign publishes.
 */
class FailedPassStatusIT extends OperatorSuite {
    @Test
    void aSwapThatKeepsFailingShowsTheLedgersPhaseWithDegradedThenPublishesOnceTheReaderLetsGo() throws Exception {
        harness(4000);
        try (Connection reader = h.db.target.connect()) {
            reader.setAutoCommit(false);
            try (Statement s = reader.createStatement()) {
                s.execute("SELECT count(*) FROM public.items"); // holds ACCESS SHARE until the transaction ends
            }
            h.startOperator("operator-a");
            h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_locked", 8, 2, ""));

            Await.until(Duration.ofSeconds(90), () -> degraded().map(c -> "True".equals(c.getStatus())).orElse(false)
                            && h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'") == 8,
                    () -> "no failed swap seen: " + h.status("items"));
            Thread.sleep(4000); // another failed swap, so the status is a failed pass's, not one racing the last commit
            BackfillCampaignStatus failing = h.status("items");
            String ledgerPhase = h.db.target.queryForString("SELECT phase FROM backfill_state.campaign");
            assertThat(failing.getPhase().name()).as("the ledger's phase (%s), not a stale one: %s", ledgerPhase, StatusJson.write(failing))
                    .isEqualTo(ledgerPhase).isNotEqualTo(CampaignPhase.Loading.name());
            assertThat(failing.getProgress().getCommittedChunks()).isEqualTo(8);
            assertThat(degraded().orElseThrow().getMessage()).containsIgnoringCase("lock");
            reader.rollback();
        }
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(60));
        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        assertThat(degraded().map(CampaignCondition::getStatus)).contains("False");
    }

    private Optional<CampaignCondition> degraded() {
        BackfillCampaignStatus status = h.status("items");
        return status == null ? Optional.empty() : ConditionSet.find(status.getConditions(), CampaignConditions.DEGRADED);
    }
}

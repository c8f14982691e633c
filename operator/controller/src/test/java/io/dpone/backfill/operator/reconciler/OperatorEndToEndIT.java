package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Through the operator end to end: a campaign applied to the (mock) cluster runs with one pod per lane, each pod a
 * real `backfill lane` process played by the lane runner, on real PostgreSQL, to HandoffCommitted.
 */
class OperatorEndToEndIT extends OperatorSuite {
    @Test
    void anAppliedCampaignPublishesExactlyTheSourceKeysThenRemovesItsLanePods() throws Exception {
        harness(20_000);
        h.startOperator("operator-a");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_v1", 16, 2, ""));

        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));

        assertThat(ItemsTable.rows(h.db.target)).as("the published table is the source, values included").isEqualTo(ItemsTable.rows(h.db.source));
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).isEqualTo(16);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM public.items__bf_backup")).as("backup kept").isEqualTo(1);
        BackfillCampaignStatus status = h.status("items");
        assertThat(status.getObservedGeneration()).isEqualTo(1L);
        assertThat(status.getProgress().getCommittedChunks()).isEqualTo(16);
        assertThat(status.getProgress().getTotalChunks()).isEqualTo(16);
        assertThat(status.getProgress().getRowsLoaded()).isEqualTo(20_000);
        assertThat(status.getPublication().getReceiptId()).isNotBlank();
        assertThat(status.getHandoff().getReceiptId()).isNotBlank();
        assertThat(ConditionSet.isTrue(status.getConditions(), CampaignConditions.READY)).as(io.dpone.backfill.operator.status.StatusJson.write(status)).isTrue();
        assertThat(ConditionSet.isTrue(status.getConditions(), CampaignConditions.STALLED)).isFalse();
        h.awaitEvents("Loading", "Validating", "HandoffCommitted");

        Await.until(Duration.ofSeconds(20), () -> h.pods().isEmpty(), () -> "lane pods left: " + h.pods().size());

        String version = h.get("items").getMetadata().getResourceVersion();
        Thread.sleep(2000);
        assertThat(h.get("items").getMetadata().getResourceVersion()).as("a settled campaign's status is not rewritten").isEqualTo(version);
    }

    /**
     * Lane pods come before preparation, so their start overlaps it (issue 11). Preparation is held by the live
     * table's advisory lock, which every shadow change takes (PostgresShadowTransaction.lockTarget): the pods exist
     * while the campaign is still Planned, and the same pods load it once the lock is gone.
     */
    @Test
    void lanePodsAreCreatedBeforePreparationAndLoadOnceItIsDone() throws Exception {
        harness(2_000);
        String lock = "SELECT pg_catalog.%s(pg_catalog.hashtextextended('dpone-backfill-target:6:public.items', 0))";
        try (Connection blocker = h.db.target.connect(); Statement hold = blocker.createStatement()) {
            hold.execute(lock.formatted("pg_advisory_lock"));
            h.startOperator("operator-a");
            h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_early", 8, 2, ""));

            Await.until(Duration.ofSeconds(60), () -> h.pods().size() == 2, () -> "lane pods: " + h.pods().size());
            assertThat(h.db.target.queryForStrings("SELECT phase FROM backfill_state.campaign"))
                    .as("the pods exist while the campaign is still being prepared").containsExactly("Planned");

            hold.execute(lock.formatted("pg_advisory_unlock"));
        }
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));
        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        assertThat(h.db.target.queryForLong("SELECT count(DISTINCT owner) FROM backfill_state.chunk_receipt"))
                .as("loaded by the pods created early, no others").isLessThanOrEqualTo(2);
    }
}

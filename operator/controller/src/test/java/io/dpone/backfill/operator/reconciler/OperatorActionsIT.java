package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.driver.OperatorActions;
import io.dpone.backfill.operator.lanes.LaneLabels;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Operator-authorised actions, GitOps-style: suspend and resume through the spec; past the lane failure budget the
 * campaign turns Recoverable, an annotation re-queues it; another annotation rolls the publication back with its
 * receipt.
 */
class OperatorActionsIT extends OperatorSuite {
    @Test
    void lanesFailingPastTheirBudgetMakeTheCampaignRecoverableAndAnAnnotationResumesIt() throws Exception {
        harness(5000);
        // The first two lane pods crash at once (a bad image, say); the budget allows one failure.
        h.lanes.withCrashOnStart(pod -> Integer.parseInt(pod.getMetadata().getLabels().get(LaneLabels.ATTEMPT)) < 2 ? 1 : null);
        h.startOperator("operator-a");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_budget", 8, 1, "  lane: {maxPodFailures: 1}\n"));

        h.awaitPhase("items", CampaignPhase.Recoverable, Duration.ofSeconds(60));
        BackfillCampaignStatus recoverable = h.status("items");
        assertThat(ConditionSet.find(recoverable.getConditions(), CampaignConditions.DEGRADED).orElseThrow().getReason()).isEqualTo("Recoverable");
        var stalled = ConditionSet.find(recoverable.getConditions(), CampaignConditions.STALLED).orElseThrow();
        assertThat(stalled.getStatus()).as("only a person can move it on").isEqualTo("True");
        assertThat(stalled.getReason()).isEqualTo("Recoverable");
        assertThat(ConditionSet.isTrue(recoverable.getConditions(), CampaignConditions.RECONCILING)).isFalse();
        assertThat(recoverable.getRecommendedAction()).contains(OperatorActions.REQUEUE_FAILED);
        h.awaitEvents("Recoverable", "LanePodReplaced");
        assertThat(h.pods()).as("failed pods are kept for their logs").hasSize(2);

        h.lanes.withCrashOnStart(pod -> null); // the cause is fixed
        annotate(OperatorActions.REQUEUE_FAILED, "1");
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(60));
        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        h.awaitEvents("FailedChunksRequeued");
        assertThat(h.get("items").getMetadata().getAnnotations()).containsEntry(OperatorActions.REQUEUE_FAILED + OperatorActions.DONE_SUFFIX, "1");

        annotate(OperatorActions.ROLLBACK, "wrong source snapshot");
        Await.until(Duration.ofSeconds(30), () -> ConditionSet.isTrue(h.status("items").getConditions(), CampaignConditions.ROLLED_BACK),
                () -> String.valueOf(h.status("items").getConditions()));
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM public.items")).as("the old table is live again").isEqualTo(1);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.rollback_receipt")).isEqualTo(1);
        assertThat(h.status("items").getPublication().getPhase()).isEqualTo("rolled_back");
        h.awaitEvents("RolledBack");

        String version = h.get("items").getMetadata().getResourceVersion();
        Thread.sleep(1500);
        assertThat(h.get("items").getMetadata().getResourceVersion()).as("a handled annotation is not acted on again").isEqualTo(version);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.rollback_receipt")).isEqualTo(1);
    }

    @Test
    void suspendStopsClaimsAndResumingFinishesTheCampaign() throws Exception {
        harness(5000);
        h.startOperator("operator-a");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_suspend", 8, 2, "  suspend: true\n"));
        h.awaitPhase("items", CampaignPhase.Suspended, Duration.ofSeconds(30));
        Thread.sleep(1000);
        assertThat(h.pods()).as("no lane runs while suspended").isEmpty();
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE attempts > 0")).isZero();
        var reconciling = ConditionSet.find(h.status("items").getConditions(), CampaignConditions.RECONCILING).orElseThrow();
        assertThat(reconciling.getReason()).isEqualTo("Suspended");

        BackfillCampaign resumed = h.get("items");
        resumed.getSpec().setSuspend(false);
        h.client.resource(resumed).update();
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(60));
        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        assertThat(h.status("items").getObservedGeneration()).isEqualTo(h.get("items").getMetadata().getGeneration());
    }

    private void annotate(String key, String value) {
        h.client.resources(BackfillCampaign.class).inNamespace(OperatorHarness.NS).withName("items")
                .edit(c -> {
                    c.getMetadata().setAnnotations(new java.util.HashMap<>(c.getMetadata().getAnnotations() == null ? Map.of()
                            : c.getMetadata().getAnnotations()));
                    c.getMetadata().getAnnotations().put(key, value);
                    return c;
                });
    }
}

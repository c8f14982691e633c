package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.support.PgCampaign;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * GitOps tools compare spec and metadata with Git: every status write of a whole campaign, Planned to
 * HandoffCommitted, leaves them as applied, and the end state reads as kstatus expects (Ready, nothing in flight,
 * nothing stalled, observedGeneration current).
 */
class StatusWritesLeaveSpecAndMetadataIT extends OperatorSuite {
    @Test
    void aCampaignRunToItsHandoffKeepsSpecLabelsAnnotationsAndGenerationAsApplied() throws Exception {
        harness(2000);
        BackfillCampaign applied = PgCampaign.campaign(OperatorHarness.NS, "items", "items_gitops", 4, 1, "");
        applied.getMetadata().setLabels(Map.of("app.kubernetes.io/instance", "orders-dev"));
        applied.getMetadata().setAnnotations(Map.of("argocd.argoproj.io/tracking-id", "orders-dev:backfill.dpone.io/BackfillCampaign:backfill/items"));
        h.apply(applied);
        BackfillCampaign before = h.get("items");
        h.startOperator("operator-a");

        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));

        BackfillCampaign after = h.get("items");
        assertThat(after.getMetadata().getResourceVersion()).as("status was written").isNotEqualTo(before.getMetadata().getResourceVersion());
        assertThat(Serialization.asJson(after.getSpec())).isEqualTo(Serialization.asJson(before.getSpec()));
        assertThat(after.getMetadata().getLabels()).isEqualTo(before.getMetadata().getLabels());
        assertThat(after.getMetadata().getAnnotations()).isEqualTo(before.getMetadata().getAnnotations());
        assertThat(after.getMetadata().getGeneration()).isEqualTo(before.getMetadata().getGeneration());

        var conditions = after.getStatus().getConditions();
        assertThat(condition(conditions, CampaignConditions.READY)).extracting(CampaignCondition::getStatus, CampaignCondition::getReason)
                .containsExactly("True", "HandoffCommitted");
        assertThat(ConditionSet.isTrue(conditions, CampaignConditions.RECONCILING)).isFalse();
        assertThat(ConditionSet.isTrue(conditions, CampaignConditions.STALLED)).isFalse();
        assertThat(after.getStatus().getObservedGeneration()).isEqualTo(after.getMetadata().getGeneration());
        assertThat(conditions).allSatisfy(c -> assertThat(c.getObservedGeneration()).isEqualTo(after.getMetadata().getGeneration()));
        assertThat(after.getStatus().getProgress().getChunks()).isEqualTo("4/4");
    }

    private static CampaignCondition condition(java.util.List<CampaignCondition> conditions, String type) {
        return ConditionSet.find(conditions, type).orElseThrow(() -> new AssertionError("no " + type + " in " + conditions));
    }
}

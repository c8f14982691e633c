package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 39, item 4: a lane pod receives the connection Secrets' values, so it runs only from an image the operator's
 * installer allowed (its lane image, and lane.allowedImages). A campaign naming another is refused like any invalid
 * spec, naming spec.lane.image, before any pod, connection or database object exists.
 */
class LaneImagesIT extends OperatorSuite {
    private static final String MIRROR = "registry.example.com/backfill-lane:0.1.0";

    @BeforeEach
    void setUp() throws Exception {
        harness(1000);
        h.startOperator(TestOperator.allowing(TestOperator.settings("operator-a"), MIRROR));
    }

    @Test
    void aCampaignNamingAnImageTheOperatorDoesNotAllowIsRefusedNamingTheFieldWithNoPodAndNoDatabaseObject() throws Exception {
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_v1", 8, 2,
                "  lane: {image: \"attacker.example/collect-credentials:latest\"}\n"));

        h.awaitPhase("items", CampaignPhase.Invalid, Duration.ofSeconds(30));
        var stalled = ConditionSet.find(h.status("items").getConditions(), CampaignConditions.STALLED).orElseThrow();
        assertThat(stalled.getReason()).isEqualTo("Invalid");
        assertThat(stalled.getMessage()).contains("spec.lane.image").contains("attacker.example/collect-credentials:latest")
                .contains("nothing was created");
        assertThat(h.status("items").getRecommendedAction()).contains("spec.lane.image");
        h.awaitEvents("Invalid");
        Thread.sleep(1500);
        assertThat(h.pods()).isEmpty();
        assertThat(h.db.target.hasSchema("backfill_state")).as("no ledger: no connection was made").isFalse();
    }

    @Test
    void anImageTheInstallerAllowedRunsTheLanes() throws Exception {
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_v1", 8, 2, "  lane: {image: \"" + MIRROR + "\"}\n"));

        Await.until(Duration.ofSeconds(30), () -> !h.pods().isEmpty(), () -> "no lane pod; status " + h.status("items"));
        assertThat(h.pods()).extracting(Pod::getSpec).allSatisfy(p -> assertThat(p.getContainers().get(0).getImage()).isEqualTo(MIRROR));
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));
    }
}

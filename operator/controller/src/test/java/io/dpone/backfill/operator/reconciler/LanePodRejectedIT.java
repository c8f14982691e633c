package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lane pod the cluster refuses: a ResourceQuota's 403 (the quota admission plugin's words, as kubectl shows them)
 * or the pod validation's 422. The campaign reports {@code Degraded=True, reason LanePodRejected} with the server's
 * message and one {@code LanePodRejected} Event, keeps its lease (no release and re-take every pass: the lease epoch
 * stays put), never says {@code EngineError}, and loads as soon as the cluster admits the pods.
 */
class LanePodRejectedIT extends OperatorSuite {
    private static final String QUOTA = "pods \"items-lane-0-0\" is forbidden: exceeded quota: lanes, requested: limits.memory=512Mi,"
            + " used: limits.memory=1536Mi, limited: limits.memory=2Gi";

    @Test
    void aPodTheQuotaRefusesIsReportedAsLanePodRejectedAndTheCampaignKeepsItsLeaseUntilThePodsAreAdmitted() throws Exception {
        harness(4000);
        h.cluster.admission.refusePodCreates(refusal(403, "Forbidden", QUOTA));
        h.startOperator("operator-a");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_quota", 8, 2, ""));

        Await.until(Duration.ofSeconds(30), () -> degraded().map(c -> CampaignConditions.LANE_POD_REJECTED.equals(c.getReason())).orElse(false),
                () -> "no LanePodRejected condition: " + h.status("items"));
        CampaignCondition condition = degraded().orElseThrow();
        assertThat(condition.getMessage()).contains("items-lane-0-0").contains("HTTP 403").contains("exceeded quota: lanes");
        assertThat(h.status("items").getRecommendedAction()).contains("ResourceQuota");
        h.awaitEvents(CampaignConditions.LANE_POD_REJECTED);
        assertThat(h.events().stream().filter(e -> CampaignConditions.LANE_POD_REJECTED.equals(e.getReason())).map(Event::getMessage))
                .singleElement().asString().contains("exceeded quota");

        long epoch = leaseEpoch();
        Thread.sleep(3000); // several passes (active poll 500 ms) with every create refused
        assertThat(leaseEpoch()).as("the campaign lease is kept, not released and taken again each pass").isEqualTo(epoch);
        assertThat(h.db.target.queryForStrings("SELECT lease_owner FROM backfill_state.campaign")).containsExactly("operator-a");
        assertThat(h.status("items").getConditions()).noneMatch(c -> "EngineError".equals(c.getReason()));
        assertThat(h.eventReasons()).doesNotContain("EngineError");
        assertThat(h.events().stream().filter(e -> CampaignConditions.LANE_POD_REJECTED.equals(e.getReason()))).as("one Event, not one per pass").hasSize(1);
        assertThat(h.pods()).isEmpty();

        h.cluster.admission.refusePodCreates(null);
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));
        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        assertThat(degraded().map(CampaignCondition::getStatus)).contains("False");
    }

    @Test
    void anInvalidPodIsReportedWithTheApiServersMessage() throws Exception {
        harness(1000);
        h.cluster.admission.refusePodCreates(refusal(422, "Invalid", "Pod \"items-lane-0-0\" is invalid:"
                + " spec.containers[0].resources.requests: Invalid value: \"1Gi\": must be less than or equal to memory limit of 512Mi"));
        h.startOperator("operator-a");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_invalid", 8, 1, ""));
        Await.until(Duration.ofSeconds(30), () -> degraded().map(c -> CampaignConditions.LANE_POD_REJECTED.equals(c.getReason())).orElse(false),
                () -> "no LanePodRejected condition: " + h.status("items"));
        assertThat(degraded().orElseThrow().getMessage()).contains("HTTP 422").contains("must be less than or equal to memory limit of 512Mi");
        assertThat(h.status("items").getPhase()).isNotIn(CampaignPhase.Recoverable, CampaignPhase.Blocked);
    }

    private Optional<CampaignCondition> degraded() {
        var status = h.status("items");
        return status == null ? Optional.empty() : ConditionSet.find(status.getConditions(), CampaignConditions.DEGRADED);
    }

    private long leaseEpoch() throws Exception {
        return h.db.target.queryForLong("SELECT lease_epoch FROM backfill_state.campaign");
    }

    private static Status refusal(int code, String reason, String message) {
        return new StatusBuilder().withApiVersion("v1").withKind("Status").withStatus("Failure").withCode(code)
                .withReason(reason).withMessage(message).build();
    }
}

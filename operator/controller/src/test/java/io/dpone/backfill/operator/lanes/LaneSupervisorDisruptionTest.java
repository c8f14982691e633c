package io.dpone.backfill.operator.lanes;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.LaneSpec;
import io.dpone.backfill.core.campaign.SpecDefaults;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.support.MockCluster;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.dpone.backfill.postgres.PostgresEndpoint;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A drained or evicted lane pod (phase Failed with DisruptionTarget, see {@link LanePods#disrupted}) is replaced
 * without spending the failure budget; a crashed one spends it. Budget 0 makes the difference visible in one pass.
 */
class LaneSupervisorDisruptionTest {
    private static final ConnectionSecret SECRET = new ConnectionSecret("db", Set.of("jdbcUrl"), PostgresEndpoint.INSTANCE);

    @Test
    void anEvictedLanePodIsReplacedWithoutSpendingTheBudgetAndACrashedOneSpendsIt() {
        try (MockCluster cluster = new MockCluster("backfill")) {
            BackfillCampaign campaign = PgCampaign.campaign("backfill", "items", "items_v1", 8, 1, "");
            LaneSpec lane = new LaneSpec();
            lane.setMaxPodFailures(0);
            campaign.getSpec().setLane(lane);
            campaign.getMetadata().setUid("uid-1");
            BackfillCampaignSpec spec = SpecDefaults.apply(campaign.getSpec());
            LanePodFactory factory = new LanePodFactory(TestOperator.settings("op"));
            LaneSupervisor supervisor = new LaneSupervisor(factory, Duration.ofSeconds(10), Clock.systemUTC());

            Pod evicted = factory.build(campaign, spec, "rk-1", 0, 0, SECRET, SECRET);
            evicted.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Failed").withReason("Evicted")
                    .withConditions(new PodConditionBuilder().withType("DisruptionTarget").withStatus("True")
                            .withReason("TerminationByKubelet").withMessage("The node was low on resource: memory.").build()).build());
            LaneReport report = supervisor.ensure(cluster.client, campaign, spec, "rk-1", 1, LanePods.of(campaign, List.of(evicted)), SECRET, SECRET);
            assertThat(report.budgetExceeded()).isFalse();
            assertThat(report.failures()).isZero();
            assertThat(report.created()).containsExactly("items-lane-0-1");
            assertThat(report.replacedFailures()).isEmpty();
            assertThat(report.replacedDisruptions()).singleElement().asString().startsWith("items-lane-0-0 (TerminationByKubelet");

            Pod crashed = factory.build(campaign, spec, "rk-1", 0, 1, SECRET, SECRET);
            crashed.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Failed").build());
            LaneReport spent = supervisor.ensure(cluster.client, campaign, spec, "rk-1", 1, LanePods.of(campaign, List.of(evicted, crashed)), SECRET, SECRET);
            assertThat(spent.failures()).isEqualTo(1);
            assertThat(spent.budgetExceeded()).isTrue();
        }
    }
}

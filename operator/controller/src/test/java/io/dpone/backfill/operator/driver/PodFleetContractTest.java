package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.LaneSpec;
import io.dpone.backfill.core.campaign.SpecDefaults;
import io.dpone.backfill.core.driver.LaneFleet;
import io.dpone.backfill.core.driver.LaneFleetContract;
import io.dpone.backfill.operator.lanes.ConnectionSecret;
import io.dpone.backfill.operator.lanes.LanePodFactory;
import io.dpone.backfill.operator.lanes.LanePods;
import io.dpone.backfill.operator.lanes.LaneSupervisor;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.support.MockCluster;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.dpone.backfill.postgres.PostgresEndpoint;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator's lanes against what the driver loop relies on: pods on the mock API server, one {@link PodFleet} a
 * pass over the pods the cluster shows then, as the reconciler builds it. A pod's phase is set as a kubelet would.
 */
class PodFleetContractTest extends LaneFleetContract {
    private static final ConnectionSecret SECRET = new ConnectionSecret("db", Set.of("jdbcUrl"), PostgresEndpoint.INSTANCE);
    private static final String RUN_KEY = "rk-1";

    private final MockCluster cluster = new MockCluster("backfill");
    private final LaneSupervisor supervisor = new LaneSupervisor(new LanePodFactory(TestOperator.settings("op")),
            Duration.ZERO, Clock.systemUTC());
    private BackfillCampaign campaign;
    private BackfillCampaignSpec spec;

    @AfterEach
    void closeCluster() {
        cluster.close();
    }

    /** Pass after pass: every call is a new pass's fleet over what the cluster shows now. */
    private final class Passes implements LaneFleet {
        @Override
        public Optional<BudgetSpent> keep(int lanes) {
            return pass().keep(lanes);
        }

        @Override
        public void drain() {
            pass().drain();
        }

        @Override
        public void finish() {
            pass().finish();
        }
    }

    private PodFleet pass() {
        return new PodFleet(supervisor, cluster.client, campaign, spec, RUN_KEY, observed(), SECRET, SECRET,
                Clock.systemUTC(), new PassNotes());
    }

    private LanePods observed() {
        return supervisor.visible(LanePods.of(campaign, cluster.client.pods().inNamespace(cluster.namespace).list().getItems()));
    }

    private LaneFleet fleet(int budget) {
        campaign = PgCampaign.campaign(cluster.namespace, "items", "items_v1", 8, 2, "");
        campaign.getMetadata().setUid("uid-1");
        LaneSpec lane = new LaneSpec();
        lane.setMaxPodFailures(budget);
        campaign.getSpec().setLane(lane);
        spec = SpecDefaults.apply(campaign.getSpec());
        return new Passes();
    }

    @Override
    protected LaneFleet runningLanes(int budget) {
        return fleet(budget);
    }

    @Override
    protected LaneFleet failingLanes(int budget) {
        return fleet(budget);
    }

    @Override
    protected int running(LaneFleet fleet) {
        return observed().active().size();
    }

    @Override
    protected void awaitFailures(LaneFleet fleet) {
        for (Pod pod : observed().active()) {
            cluster.client.pods().inNamespace(cluster.namespace).withName(pod.getMetadata().getName())
                    .editStatus(p -> {
                        p.setStatus(new PodStatusBuilder().withPhase(LanePods.FAILED).build());
                        return p;
                    });
        }
    }

    @Test
    void aPassAsksTheApiServerForItsLanesOnceEvenWhenItsSnapshotCannotShowThem() {
        fleet(0);
        PodFleet pass = pass();

        assertThat(pass.keep(2)).isEmpty();
        assertThat(pass.keep(2)).isEmpty();

        assertThat(cluster.client.pods().inNamespace(cluster.namespace).list().getItems()).hasSize(2);
        assertThat(pass.report().created()).hasSize(2);
    }
}

package io.dpone.backfill.operator.lanes;

import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LanePodsTest {
    private static final String RUN_KEY = "rk-0123456789abcdef01234567";

    private static BackfillCampaign campaign() {
        BackfillCampaign c = new BackfillCampaign();
        c.setMetadata(new ObjectMetaBuilder().withName("items").withNamespace("ns").build());
        return c;
    }

    private static Pod pod(String name, String phase, String waitingReason) {
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .withLabels(Map.of(LaneLabels.CAMPAIGN, "items", LaneLabels.RUN_KEY, RUN_KEY, LaneLabels.LANE, "0",
                        LaneLabels.ATTEMPT, "0"))
                .endMetadata().withNewStatus().withPhase(phase).endStatus().build();
        if (waitingReason != null) {
            pod.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName("lane").withNewState()
                    .withNewWaiting().withReason(waitingReason).endWaiting().endState().build()));
        }
        return pod;
    }

    @Test
    void podsThatCannotStartAreStuckWithTheirKubeletReason() {
        LanePods pods = LanePods.of(campaign(), List.of(
                pod("items-lane-0-0", "Pending", "ImagePullBackOff"),
                pod("items-lane-1-0", "Pending", "CreateContainerConfigError"),
                pod("items-lane-2-0", "Pending", "ContainerCreating"),
                pod("items-lane-3-0", "Running", null),
                pod("items-lane-4-0", "Failed", "ErrImagePull")));
        assertThat(pods.stuck(RUN_KEY)).containsExactly("items-lane-0-0: ImagePullBackOff",
                "items-lane-1-0: CreateContainerConfigError");
        assertThat(pods.stuck("rk-another")).isEmpty();
    }
}

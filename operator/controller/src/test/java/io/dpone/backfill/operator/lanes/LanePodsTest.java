package io.dpone.backfill.operator.lanes;

import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LanePodsTest {
    private static final String RUN_KEY = "rk-0123456789abcdef01234567";
    private static final Instant NOW = Instant.parse("2026-12-03T08:00:00Z");

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
        assertThat(pods.stuck(RUN_KEY, NOW)).containsExactly("items-lane-0-0: ImagePullBackOff",
                "items-lane-1-0: CreateContainerConfigError");
        assertThat(pods.stuck("rk-another", NOW)).isEmpty();
    }

    @Test
    void aPodTheSchedulerCannotPlaceIsStuckOnlyAfterTheBoundWithTheSchedulersMessage() {
        String message = "0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available";
        Pod fresh = unschedulable(pod("items-lane-0-0", "Pending", null), NOW.minusSeconds(30), message);
        Pod old = unschedulable(pod("items-lane-1-0", "Pending", null), NOW.minus(LanePods.UNSCHEDULABLE_BOUND), message);
        LanePods pods = LanePods.of(campaign(), List.of(fresh, old));
        assertThat(pods.stuck(RUN_KEY, NOW)).containsExactly("items-lane-1-0: Unschedulable (" + message + ")");
        assertThat(pods.stuck(RUN_KEY, NOW.plus(LanePods.UNSCHEDULABLE_BOUND))).hasSize(2);
    }

    @Test
    void aPodTheClusterTookAwayIsNotAFailureOfTheLane() {
        // The kubelet's eviction (pkg/kubelet/eviction/eviction_manager.go): phase Failed, reason Evicted,
        // DisruptionTarget=True with reason TerminationByKubelet. A drain through the Eviction API sets
        // DisruptionTarget with EvictionByEvictionAPI before the pod terminates.
        Pod evicted = pod("items-lane-0-0", "Failed", null);
        evicted.getStatus().setReason("Evicted");
        evicted.getStatus().setMessage("The node was low on resource: memory.");
        evicted.getStatus().setConditions(List.of(new PodConditionBuilder().withType("DisruptionTarget").withStatus("True")
                .withReason("TerminationByKubelet").withMessage("The node was low on resource: memory.").build()));
        Pod drained = pod("items-lane-1-0", "Failed", null);
        drained.getStatus().setConditions(List.of(new PodConditionBuilder().withType("DisruptionTarget").withStatus("True")
                .withReason("EvictionByEvictionAPI").withMessage("Eviction API: evicting").build()));
        Pod crashed = pod("items-lane-2-0", "Failed", null);
        LanePods pods = LanePods.of(campaign(), List.of(evicted, drained, crashed));

        assertThat(pods.failures(RUN_KEY)).as("only the crashed lane counts").isEqualTo(1);
        assertThat(LanePods.disrupted(evicted)).isTrue();
        assertThat(LanePods.disrupted(drained)).isTrue();
        assertThat(LanePods.disrupted(crashed)).isFalse();
        assertThat(LanePods.disruption(evicted)).isEqualTo("TerminationByKubelet: The node was low on resource: memory.");
        assertThat(pods.failed(RUN_KEY)).hasSize(3);
    }

    private static Pod unschedulable(Pod pod, Instant since, String message) {
        pod.getStatus().setConditions(List.of(new PodConditionBuilder().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").withMessage(message).withLastTransitionTime(since.toString()).build()));
        return pod;
    }
}

package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.NextAction;
import io.dpone.backfill.core.engine.StepResult;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The CLI's pass: when it steps again, and how long it waits before it does. */
class UntilSettledTest {
    private final List<Duration> waits = new ArrayList<>();
    private final UntilSettled pass = new UntilSettled(waits::add);

    @Test
    void aLoadingCampaignIsSteppedAgainAfterWaitingItsRequeueForALaneToExit() throws InterruptedException {
        assertThat(pass.stepAgain(StepResult.loading(2, "1/4 chunks committed", Duration.ofSeconds(2)))).isTrue();

        assertThat(waits).containsExactly(Duration.ofSeconds(2));
    }

    @Test
    void aSettledCampaignEndsTheRunWithoutWaiting() throws InterruptedException {
        StepResult done = StepResult.settled(CampaignPhase.HandoffCommitted, "published and handed off", "complete",
                Duration.ZERO, new NextAction.StartIncrementalSync("42"));

        assertThat(pass.stepAgain(done)).isFalse();
        assertThat(waits).isEmpty();
    }

    @Test
    void aMemberWaitingForItsGroupEndsTheRunSoTheOtherMembersCanLoadInTheirs() throws InterruptedException {
        StepResult waiting = StepResult.pausing(CampaignPhase.Publishing, "validated", "awaiting its publication group",
                Duration.ofSeconds(5), new NextAction.AwaitGroup("store", List.of("Album (Loading)")));

        assertThat(pass.stepAgain(waiting)).isFalse();
        assertThat(waits).isEmpty();
    }

    @Test
    void aSwapWaitingForApprovalIsSteppedAgainUntilSomeoneApproves() throws InterruptedException {
        StepResult waiting = StepResult.pausing(CampaignPhase.Publishing, "validated", "awaiting approval",
                Duration.ofSeconds(5), new NextAction.AwaitApproval());

        assertThat(pass.stepAgain(waiting)).isTrue();
        assertThat(waits).containsExactly(Duration.ofSeconds(5));
    }
}

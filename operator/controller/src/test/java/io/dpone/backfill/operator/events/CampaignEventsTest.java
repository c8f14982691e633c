package io.dpone.backfill.operator.events;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.BlockReason;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.operator.driver.DriveOutcome;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CampaignEventsTest {
    private static BackfillCampaignStatus status(CampaignPhase phase, String message) {
        return status(phase, null, message);
    }

    private static BackfillCampaignStatus status(CampaignPhase phase, BlockReason reason, String message) {
        BackfillCampaignStatus s = new BackfillCampaignStatus();
        s.setPhase(phase);
        s.setConditions(ConditionSet.merge(List.of(), CampaignConditions.forPhase(phase, reason, message, null, null), Instant.EPOCH, 1L));
        return s;
    }

    private static StepResult step(CampaignPhase phase, String message) {
        return StepResult.progressed(phase, message, Duration.ZERO);
    }

    @Test
    void everyPhaseTransitionOfAPassIsOneEvent() {
        var events = CampaignEvents.plan(status(CampaignPhase.Loading, ""), status(CampaignPhase.HandoffCommitted, ""), List.of(),
                List.of(step(CampaignPhase.Validating, "all 8 chunks committed"), step(CampaignPhase.Publishing, "validated"),
                        step(CampaignPhase.Published, "published"), step(CampaignPhase.HandoffCommitted, "handoff")));
        assertThat(events).extracting(CampaignEvents.Planned::reason).containsExactly("Validating", "Publishing", "Published", "HandoffCommitted");
        assertThat(events.get(0).message()).isEqualTo("Loading -> Validating: all 8 chunks committed");
        assertThat(events).allMatch(e -> e.type().equals("Normal"));
    }

    @Test
    void aPassThatChangesNothingEmitsNothing() {
        var loading = status(CampaignPhase.Loading, "");
        assertThat(CampaignEvents.plan(loading, loading, List.of(), List.of(step(CampaignPhase.Loading, "3/8")))).isEmpty();
    }

    @Test
    void aBlockingErrorIsAWarningWithAnActionableReasonOnce() {
        var blocked = status(CampaignPhase.Blocked, BlockReason.VALIDATION_FAILED, "validation failed: 1 duplicate keys");
        var events = CampaignEvents.plan(status(CampaignPhase.Validating, ""), blocked, List.of(),
                List.of(step(CampaignPhase.Blocked, "validation failed: 1 duplicate keys")));
        assertThat(events).extracting(CampaignEvents.Planned::reason).containsExactly("Blocked", "ValidationFailed");
        assertThat(events).allMatch(e -> e.type().equals("Warning"));
        assertThat(CampaignEvents.plan(blocked, blocked, List.of(), List.of())).isEmpty();
    }

    @Test
    void notesBecomeEvents() {
        var loading = status(CampaignPhase.Loading, "");
        var events = CampaignEvents.plan(loading, loading, List.of(new DriveOutcome.Note("LanePodReplaced", "lane pod x failed", true)), List.of());
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.reason()).isEqualTo("LanePodReplaced");
            assertThat(e.type()).isEqualTo("Warning");
        });
    }

    @Test
    void anEventMessageIsScrubbedBeforeItIsCutSoNoPartOfAPasswordRemains() {
        // A driver message quoting a URL (pgjdbc: "Unable to parse URL ..."), with the password across the cut.
        String text = "x".repeat(1000) + " Unable to parse URL jdbc:postgresql://h/db?user=u&password=Ev1-Pa55-XYZ%zz&sslmode=require";

        String message = CampaignEvents.message(text);

        assertThat(message).doesNotContain("Ev1").endsWith("...").hasSize(1027);
    }
}

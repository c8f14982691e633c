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

    @Test
    void eachReconciliationPassIsOneEventWithItsCountsAndTheHandoffFollows() {
        var events = CampaignEvents.plan(status(CampaignPhase.Published, ""), status(CampaignPhase.HandoffCommitted, ""), List.of(),
                List.of(step(CampaignPhase.Reconciling, "reconciliation pass 1 finished at anchor 2001: 40 upserted, 2 deleted, 0 queued"),
                        step(CampaignPhase.Reconciling, "reconciliation pass 2 finished at anchor 2002: 3 upserted, 0 deleted, 1 queued"),
                        step(CampaignPhase.HandoffCommitted, "handoff committed at XMin 2002 from reconciliation pass 2")));
        assertThat(events).extracting(CampaignEvents.Planned::reason).containsExactly(CampaignEvents.RECONCILE_PASS_FINISHED,
                CampaignEvents.RECONCILE_PASS_FINISHED, "HandoffCommitted");
        assertThat(events.get(1).message()).contains("pass 2", "3 upserted", "1 queued");
        assertThat(events.get(2).message()).isEqualTo("Reconciling -> HandoffCommitted: handoff committed at XMin 2002 from reconciliation pass 2");
    }

    @Test
    void keysThatStartToWaitInTheQueueAreOneWarningUntilTheirCountChanges() {
        var r = new io.dpone.backfill.core.campaign.ReconciliationStatus();
        r.setCaughtUp(false);
        r.setQueue(2L);
        var before = status(CampaignPhase.HandoffCommitted, "");
        var after = status(CampaignPhase.HandoffCommitted, "");
        after.setConditions(ConditionSet.merge(after.getConditions(),
                List.of(CampaignConditions.caughtUp(r, CampaignPhase.HandoffCommitted)), Instant.EPOCH, 1L));

        var events = CampaignEvents.plan(before, after, List.of(), List.of());
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo("Warning");
            assertThat(e.reason()).isEqualTo(CampaignConditions.KEYS_QUEUED);
            assertThat(e.message()).startsWith("2 key(s)");
        });
        assertThat(CampaignEvents.plan(after, after, List.of(), List.of())).as("said once").isEmpty();
    }
}
